# SPDX-License-Identifier: GPL-2.0
# Is the input a snapshot as snapshotter/FORMAT.md describes it?
# Usage: jq -e -f tests/snapshot-schema.jq snapshot.json
def mode: type == "string" and test("^0[0-7]{3,4}$");
def node:
  type == "object" and
  if (has("type") | not) then (.error | type == "string")
  elif .type == "dir" then
    (.mode | mode) and ((.entries // {}) | to_entries | all(.value | node))
  elif .type == "file" then
    (.mode | mode) and
    ([has("value"), has("base64"), has("error")] | map(select(.)) | length == 1)
  elif .type == "link" then
    (.mode | mode)
    and ((.target | type == "string") or (.target_base64 | type == "string"))
    and ((has("follow") | not) or (.follow | node))
  elif .type == "other" then (.mode | mode)
  else false end;

.format == 1
and (.header | (.snapshotter | type == "string")
     and (.release | type == "string") and (.machine | type == "string"))
and (.sysfs.mounted | type == "boolean")
and (.kmsg | (type == "array" and all(type == "string"))
     or (type == "object" and (.error | type == "string")))
and (.probes | type == "array"
     and all(type == "object" and (.op | type == "string")
             and (.result | type == "string")))
and (.roots | type == "object" and (to_entries | all(.value | node)))
