#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# kcidb-validate.py SCHEMA DOCUMENT...: each DOCUMENT against SCHEMA (our
# transcription of kcidb-io's v5.3, tests/report/kcidb-v05_03.schema.json)
# as kcidb-io's Version.validate_exactly() does it: jsonschema with the
# draft 7 format checker. Prints the first error of each bad one; exit 1.
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
validator = jsonschema.Draft202012Validator
validator.check_schema(schema)
formats = getattr(jsonschema.Draft7Validator, "FORMAT_CHECKER", None) or \
    jsonschema.draft7_format_checker
check = validator(schema, format_checker=formats)
bad = 0
for path in sys.argv[2:]:
    doc = json.load(open(path))
    error = jsonschema.exceptions.best_match(check.iter_errors(doc))
    if error:
        where = "/".join(str(p) for p in error.absolute_path)
        print(f"{path}: {where}: {error.message[:300]}")
        bad = 1
sys.exit(bad)
