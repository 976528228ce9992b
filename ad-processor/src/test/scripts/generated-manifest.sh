#!/bin/sh
# Writes the manifest of every source ad4j generates in the processor's test corpus and in the
# samples: one sorted line per generated file, "<key> <class> <SHA-256 of its text> <count>",
# the key a hash of the user sources of its compilation (GeneratedManifest), or "samples".
# A change that must keep the generated code byte for byte the same leaves it unchanged:
#
#   ad-processor/src/test/scripts/generated-manifest.sh ~/before.txt   (before the change)
#   ad-processor/src/test/scripts/generated-manifest.sh ~/after.txt    (after it)
#   diff ~/before.txt ~/after.txt
#
# Runs the processor's and the samples' tests (mvn verify) with CI=true, so that the random
# property tests draw the same programs on every run. Further arguments go to Maven.
# Run from anywhere inside the repository.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 <manifest file> [maven arguments]" >&2; exit 2; }
case "$1" in
  /*) manifest="$1" ;;
  *) manifest="$(pwd)/$1" ;;
esac
shift
cd "$(dirname "$0")/../../../.."
rm -f "$manifest"
# the samples' generated sources must be this build's, not an earlier one's
rm -rf ad-samples/target
CI=true mvn -B -q -pl ad-processor,ad-samples -am verify -Dad4j.manifest="$manifest" "$@"
[ -s "$manifest" ] || { echo "the processor's tests wrote no manifest" >&2; exit 1; }
generated=ad-samples/target/generated-sources/annotations
(cd "$generated" && find . -name '*.java' | sort | while read -r file; do
  class=$(echo "${file#./}" | sed 's/\.java$//; s|/|.|g')
  echo "samples $class $(sha256sum "$file" | cut -d' ' -f1) 1"
done) >> "$manifest"
LC_ALL=C sort -o "$manifest" "$manifest"
wc -l < "$manifest" | xargs echo "generated files in $manifest:"
