# Sourced by scripts/test.sh: the shared folders of golden vectors CI runs.
# A missing folder fails its step and is named in the summary, so CI never
# passes by skipping a device's vectors. Call these in the test script's own
# shell (not in a pipeline), so that the list reaches the summary.
missing_folders=()

require_folder() {  # require_folder FOLDER: 0 if it exists, else named and recorded
  [ -d "$1" ] && return 0
  echo "missing shared folder of vectors: $1"
  missing_folders+=("$1")
  return 1
}

conformance() {  # conformance BUILD FOLDER RUNNER-ARGS...: BUILD's runner over FOLDER
  local build="$1" folder="$2"; shift 2
  require_folder "$folder" && "$build/ai8xsim-conformance" "$folder" "$@"
}

report_missing_folders() {  # one summary line per missing folder
  [ ${#missing_folders[@]} -eq 0 ] || printf 'missing shared folder of vectors: %s\n' "${missing_folders[@]}"
}
