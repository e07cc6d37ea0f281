# Sourced by the scripts that measure reliability (soak, soak-footage, stress-unplug,
# stress-power-loss, fuzz, sanitizer-rows): each ends by printing its row of docs/reliability.md's
# tables, and `bash scripts/record-figures --rows NAME -- COMMAND` puts the rows a run printed into
# the page as printed, so no figure there is retyped.

# The commit measured (short), and "with uncommitted changes" after it when any of PATHS differs
# from it. (scripts/record-figures uses it too.)
measured_commit() {
    local commit
    commit=$(git rev-parse --short HEAD 2>/dev/null || echo "no commit")
    git diff --quiet HEAD -- "$@" 2>/dev/null || commit="$commit with uncommitted changes"
    printf '%s' "$commit"
}

# The machine's CPU model, as /proc/cpuinfo names it.
machine_cpu() {
    local cpu
    cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
    printf '%s' "${cpu:-unknown CPU}"
}

# The last cell of every row: when, on which commit and on what machine the figures were measured.
# A tree with changes to the code under test says so after the commit.
measured_cell() {
    printf '%s, %s, %s cores (%s)' "$(date -u +%Y-%m-%d)" \
        "$(measured_commit Sources Tests fuzz scripts Package.swift)" "$(nproc)" "$(machine_cpu)"
}

# reliability_row WHAT HOW RUNS RESULT: one row, `| WHAT | \`HOW\` | RUNS | RESULT | MEASURED |`.
# WHAT is the row's key: a new row replaces the page's row with the same WHAT.
reliability_row() {
    printf '| %s | `%s` | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$(measured_cell)"
}
