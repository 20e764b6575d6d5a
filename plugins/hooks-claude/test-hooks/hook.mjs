// A configurable hook for the tests. Args: EXIT_CODE DELAY_SEC STDOUT_B64 STDERR_B64 RECORD_FILE
// ("-" for none). Appends its stdin JSON (one line) to RECORD_FILE, sleeps, prints, exits.
import { appendFileSync } from 'node:fs'

const [code, delay, out, err, record] = process.argv.slice(2)
let text = ''
process.stdin.setEncoding('utf8')
for await (const chunk of process.stdin) text += chunk
const input = JSON.parse(text)
if (record !== '-') appendFileSync(record, `${JSON.stringify(input)}\n`)
if (Number(delay) > 0) await new Promise((resolve) => setTimeout(resolve, Number(delay) * 1000))
const write = (stream, b64) => new Promise((resolve) => (b64 === '-' ? resolve() : stream.write(Buffer.from(b64, 'base64'), resolve)))
await write(process.stdout, out)
await write(process.stderr, err)
process.exitCode = Number(code)
