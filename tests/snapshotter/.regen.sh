# bootstrap expected.json for a case (reviewed by hand afterwards)
. "$(dirname "$0")/lib.sh"
c=$cases/$1
scratch_new; mkdir $scratch/sys
(cd $scratch/sys && sh -e $c/tree)
wrap=; [ -f $c/wrap ] && wrap=$(cat $c/wrap)
(cd $c && $wrap $SNAP --sysfs $scratch/sys $(cat $c/args)) > $scratch/out 2>$scratch/err
echo "status $?" >&2; cat $scratch/err >&2
if [ -f $c/filter ]; then jq -S -f $c/filter $scratch/out; else cat $scratch/out; fi | header_normalise > $c/expected.json
[ -s $c/expected.json ] || rm $c/expected.json
scratch_remove
