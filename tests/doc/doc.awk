# SPDX-License-Identifier: GPL-2.0
# What a Markdown document shows, for tests/doc/t-doc.sh, one a line as
# "FILE:LINE<tab>TEXT":
#   what=commands  each sysfarm command shown, TEXT its command and
#                  arguments ("check --allow-added x86_64-sysfs-on"): in a
#                  code block, a line (continued by '\') with "sysfarm CMD";
#                  in prose, an `inline code` span with "sysfarm CMD", or
#                  one that starts with one of cmds ("list|fetch|...") and
#                  an option (`check --allow-added`). A shell command ends
#                  at | & ; < or >; its comment is kept.
#   what=links     each relative link target ([text](TARGET)) outside
#                  code blocks, with its #fragment.
# Prose is read a paragraph at a time (a span or link may wrap), LINE the
# paragraph's first.

# The "sysfarm CMD ..." in @text, each one. A shell line's comment is
# prose about it (its options too): kept, not cut at its ';' or '->'.
function commands(text, line,    cut, note) {
	note = ""
	if (match(text, /[ \t]#/)) {
		note = substr(text, RSTART)
		text = substr(text, 1, RSTART - 1)
	}
	while (match(text, /(^|[ \/])sysfarm +[^ ]/)) {
		text = substr(text, RSTART + RLENGTH - 1)
		cut = text
		if (!sub(/[|&;<>].*/, "", cut))
			cut = cut note
		sub(/ +$/, "", cut)
		print FILENAME ":" line "\t" cut
	}
}

function flush(    text, span, target) {
	text = para
	para = ""
	if (what == "commands") {
		while (match(text, /`[^`]+`/)) {
			span = substr(text, RSTART + 1, RLENGTH - 2)
			text = substr(text, RSTART + RLENGTH)
			if (span ~ /(^|[ \/])sysfarm +[^ ]/)
				commands(span, start)
			else if (span ~ ("^(" cmds ") +-"))
				print FILENAME ":" start "\t" span
		}
	} else {
		while (match(text, /\]\([^) ]+\)/)) {
			target = substr(text, RSTART + 2, RLENGTH - 3)
			text = substr(text, RSTART + RLENGTH)
			if (target !~ /^[a-z]+:/)
				print FILENAME ":" start "\t" target
		}
	}
}

/^ *```/ {
	flush()
	fence = !fence
	next
}

fence {
	if (what != "commands")
		next
	if (cont == "")
		cstart = FNR
	if (sub(/\\$/, "")) {
		cont = cont $0 " "
		next
	}
	commands(cont $0, cstart)
	cont = ""
	next
}

/^[ \t]*$/ || /^#/ {
	flush()
	next
}

{
	if (para == "")
		start = FNR
	para = para " " $0
}

END {
	flush()
}
