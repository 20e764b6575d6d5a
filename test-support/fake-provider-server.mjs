// @ts-check
// The HTTP side shared by the fake provider servers: listen on loopback, capture each request,
// check it against the provider's protocol rules (a real API rejects malformed requests, so the
// fake does too), consume one scripted turn per model request and hand it to the provider's
// responder. Types live in fake-provider-server.d.mts.

import http from 'node:http'
import { resolveTurn } from './scripted-turns.mjs'

/**
 * @template Body
 * @typedef {import('./fake-provider-server.mjs').FakeProviderDefinition<Body>} FakeProviderDefinition
 */
/**
 * @template Body
 * @typedef {import('./fake-provider-server.mjs').CapturedRequest<Body>} CapturedRequest
 */
/**
 * @template Body
 * @typedef {import('./fake-provider-server.mjs').FakeProviderServer<Body>} FakeProviderServer
 */

/**
 * @template Body
 * @param {FakeProviderDefinition<Body>} def
 * @param {ReadonlyArray<import('./scripted-turns.mjs').ScriptStep<Body>>} script
 * @param {import('./fake-provider-server.mjs').FakeServerOptions} [options]
 * @returns {Promise<FakeProviderServer<Body>>}
 */
export async function startFakeProvider(def, script, options = {}) {
  /** @type {CapturedRequest<Body>[]} */
  const requests = []
  let turnsUsed = 0

  /**
   * @param {http.IncomingMessage} req
   * @param {http.ServerResponse} res
   */
  async function handle(req, res) {
    req.socket.setNoDelay(true)
    const raw = await readBody(req)
    const path = (req.url ?? '/').split('?')[0]
    const method = req.method ?? 'GET'
    const extra = def.extraRoutes?.[`${method} ${path}`]
    if (extra) {
      sendJson(res, 200, extra())
      return
    }
    if (method !== 'POST' || path !== def.completionPath) {
      sendJson(res, 404, def.errorBody(404, `${def.name}: no route for ${method} ${path} (this fake serves POST ${def.completionPath})`))
      return
    }
    /** @type {unknown} */
    let parsed
    try {
      parsed = JSON.parse(raw)
    } catch (err) {
      sendJson(res, 400, def.errorBody(400, `${def.name}: request body is not valid JSON: ${/** @type {Error} */ (err).message}`))
      return
    }
    /** @type {(value: 'finished' | 'aborted') => void} */
    let settleClosed = () => {}
    /** @type {Promise<'finished' | 'aborted'>} */
    const closed = new Promise((resolve) => {
      settleClosed = resolve
    })
    res.on('close', () => settleClosed(res.writableEnded ? 'finished' : 'aborted'))
    /** @type {CapturedRequest<Body>} */
    const captured = { index: requests.length, method, path, headers: req.headers, body: /** @type {Body} */ (parsed), closed }
    requests.push(captured)

    const invalid = def.validate(parsed)
    if (invalid) {
      sendJson(res, 400, def.errorBody(400, invalid))
      return
    }
    // A request longer than the context window is refused before any turn is used, as a real API does.
    const limit = options.contextWindow
    if (limit !== undefined) {
      const tokens = def.promptTokens(captured.body)
      if (tokens > limit) {
        sendJson(res, 400, def.contextLengthError(tokens, limit))
        return
      }
    }
    const index = turnsUsed++
    let turn
    try {
      turn = await resolveTurn(script, index, captured.body, { index, path, headers: req.headers })
    } catch (err) {
      sendJson(res, 500, def.errorBody(500, `${def.name}: script step ${index} threw: ${/** @type {Error} */ (err).message}`))
      return
    }
    if (!turn) {
      const message = `${def.name}: script exhausted: model request #${index + 1} arrived but the script has only ${script.length} turn(s)`
      sendJson(res, 500, def.errorBody(500, message))
      return
    }
    if (turn.error) {
      const { status, body, headers } = turn.error
      const payload = body === undefined ? def.errorBody(status, `${def.name}: scripted error ${status}`) : body
      const text = typeof payload === 'string' ? payload : JSON.stringify(payload)
      res.writeHead(status, { 'content-type': typeof payload === 'string' ? 'text/plain' : 'application/json', ...headers })
      res.end(text)
      return
    }
    await def.respond(turn, captured, res)
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) sendJson(res, 500, def.errorBody(500, `${def.name}: ${err instanceof Error ? err.message : String(err)}`))
      else res.destroy()
    })
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve(undefined))
  })
  const address = /** @type {import('node:net').AddressInfo} */ (server.address())
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const origin = `http://${host}:${address.port}`
  return {
    url: origin + def.basePath,
    origin,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        // Streams left hanging (hangAfterChars) and idle keep-alive sockets would hold close() open.
        server.closeAllConnections()
      })
  }
}

/**
 * Writes one SSE frame; resolves false once the client has gone, so responders stop early.
 * @param {http.ServerResponse} res
 * @param {string} frame
 * @param {number} delayMs
 * @returns {Promise<boolean>}
 */
export async function writeFrame(res, frame, delayMs) {
  if (res.destroyed || res.writableEnded) return false
  // Wait until the frame is handed to the socket, so a reset right after it cannot swallow it.
  await new Promise((resolve) => {
    const done = () => {
      res.off('close', done)
      resolve(undefined)
    }
    res.once('close', done)
    res.write(frame, done)
  })
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
  return !res.destroyed
}

/**
 * Keeps the response open until the client (or close()) ends the connection.
 * @param {http.ServerResponse} res
 * @returns {Promise<void>}
 */
export function hangUntilClosed(res) {
  if (res.destroyed) return Promise.resolve()
  return new Promise((resolve) => res.once('close', () => resolve()))
}

/**
 * Plays a scripted turn's SSE frames: headers, then each frame with the turn's delay, cutting the
 * connection (`resetAfterChars`) or going silent (`hangAfterChars`) where the script says.
 * @param {http.ServerResponse} res
 * @param {ReadonlyArray<{ frame: string, chars: number }>} frames
 * @param {import('./scripted-turns.mjs').ScriptedTurn} turn
 * @returns {Promise<void>}
 */
export async function playFrames(res, frames, turn) {
  startEventStream(res)
  let sentChars = 0
  for (const { frame, chars } of frames) {
    if (!(await writeFrame(res, frame, turn.chunkDelayMs ?? 0))) return
    sentChars += chars
    if (turn.resetAfterChars !== undefined && sentChars >= turn.resetAfterChars) {
      res.destroy()
      return
    }
    if (turn.hangAfterChars !== undefined && sentChars >= turn.hangAfterChars) {
      await hangUntilClosed(res)
      return
    }
  }
  res.end()
}

/**
 * @param {http.ServerResponse} res
 */
export function startEventStream(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' })
  res.flushHeaders()
}

/**
 * @param {http.ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 */
export function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/**
 * @param {http.IncomingMessage} req
 * @returns {Promise<string>}
 */
function readBody(req) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}
