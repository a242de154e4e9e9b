# SPDX-License-Identifier: GPL-2.0
# Sourced by tests that open the HTML report in Debian's chromium,
# headless: html_dom PAGE (the DOM after load, on stdout), html_shot PAGE
# PNG (a screenshot for a person to look at), html_xpath PAGE XPATH.
CHROMIUM="chromium --headless --no-sandbox --disable-gpu --hide-scrollbars"

html_dom() {
	$CHROMIUM --dump-dom "file://$1" 2>/dev/null
}

html_shot() {
	$CHROMIUM --window-size=1280,1600 --screenshot="$2" "file://$1" \
		>/dev/null 2>&1
}

# The DOM chromium built, queried with libxml2's HTML parser.
html_xpath() {
	html_dom "$1" >"$TMP/dom.html" &&
		xmllint --html --xpath "$2" "$TMP/dom.html" 2>/dev/null
}
