#!/bin/bash
# A configurable hook for the tests. Args: EXIT_CODE DELAY_SEC STDOUT_B64 STDERR_B64 RECORD_FILE
# ("-" for none). Appends its stdin JSON (one line) to RECORD_FILE, sleeps, prints, exits.
code=$1; delay=$2; out=$3; err=$4; record=$5
input=$(cat)
if [ "$record" != "-" ]; then printf '%s\n' "$input" >> "$record"; fi
if [ "$delay" != "0" ]; then sleep "$delay"; fi
if [ "$out" != "-" ]; then printf '%s' "$out" | base64 -d; fi
if [ "$err" != "-" ]; then printf '%s' "$err" | base64 -d >&2; fi
exit "$code"
