#!/usr/bin/env node
// @ts-check
// Runs a fake provider server as its own process, for e2e tests that start the app separately.
//
//   node test-support/fake-provider-cli.mjs <openai|anthropic> <port> <script.mjs|script.json>
//
// The script module's default export (or a JSON file's content) is the list of scripted turns;
// a module may use functions as steps. Port 0 picks a free port. Prints `READY <base url>` on
// stdout once listening; stops on SIGTERM/SIGINT.

import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { startFakeAnthropic } from './fake-anthropic.mjs'
import { startFakeOpenAI } from './fake-openai.mjs'

const USAGE = 'usage: node test-support/fake-provider-cli.mjs <openai|anthropic> <port> <script.mjs|script.json>'

async function main() {
  const [kind, portText, scriptPath] = process.argv.slice(2)
  if (kind !== 'openai' && kind !== 'anthropic') fail(`unknown provider ${JSON.stringify(kind)}; ${USAGE}`)
  const port = Number(portText)
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`port must be an integer 0-65535, got ${JSON.stringify(portText)}; ${USAGE}`)
  if (!scriptPath) fail(`missing script path; ${USAGE}`)

  const absolute = resolve(scriptPath)
  const script = absolute.endsWith('.json')
    ? JSON.parse(await readFile(absolute, 'utf8'))
    : (await import(pathToFileURL(absolute).href)).default
  if (!Array.isArray(script)) fail(`${scriptPath} must ${absolute.endsWith('.json') ? 'hold' : 'default-export'} an array of scripted turns`)

  const server = kind === 'openai' ? await startFakeOpenAI(script, { port }) : await startFakeAnthropic(script, { port })
  process.stdout.write(`READY ${server.url}\n`)
  const stop = () => {
    server.close().then(() => process.exit(0))
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  process.stderr.write(`fake-provider-cli: ${message}\n`)
  process.exit(2)
}

main().catch((err) => fail(err instanceof Error ? err.stack ?? err.message : String(err)))
