# A configurable hook for the tests. Args: EXIT_CODE DELAY_SEC STDOUT_B64 STDERR_B64 RECORD_FILE
# ("-" for none). Appends its stdin JSON (one line) to RECORD_FILE, sleeps, prints, exits.
import base64
import json
import sys
import time

code, delay, out, err, record = sys.argv[1:6]
data = json.load(sys.stdin)
if record != "-":
    with open(record, "a", encoding="utf-8") as f:
        f.write(json.dumps(data) + "\n")
if float(delay) > 0:
    time.sleep(float(delay))
if out != "-":
    sys.stdout.buffer.write(base64.b64decode(out))
    sys.stdout.flush()
if err != "-":
    sys.stderr.buffer.write(base64.b64decode(err))
    sys.stderr.flush()
sys.exit(int(code))
