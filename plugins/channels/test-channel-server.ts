// A channel server as a Claude Code plugin ships one, for the tests: a real MCP server on the
// official SDK (the repository's own copy, imported by file URL since the plugin runs from Seam's
// cache), declaring `claude/channel` and `claude/channel/permission`. What it pushes comes from the
// test: each `<CLAUDE_PLUGIN_DATA>/outbox/*.json` file ({method, params}) is sent as a notification,
// in name order, then removed; the `push` tool sends a channel message ({content, meta}) before it
// answers (so it reaches Seam before the call's result does). What reaches it is written down for
// the test: each `reply` tool call to `replies.jsonl`, each permission prompt to `prompts.jsonl`.
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const sdkModule = (subpath: string): string => {
  const cjs = createRequire(import.meta.url).resolve(`@modelcontextprotocol/sdk/${subpath}`)
  return pathToFileURL(cjs.replace(`${'/dist/cjs/'}`, '/dist/esm/')).href
}

export const CHANNEL_INSTRUCTIONS = 'Messages arrive as <channel source="chat" chat_id="...">. Answer with the reply tool, passing chat_id back.'

/** The server's source (an .mjs file in the plugin). `declare`: the experimental capabilities it declares. */
export function channelServerScript(declare: readonly string[] = ['claude/channel', 'claude/channel/permission']): string {
  return `import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { Server } from ${JSON.stringify(sdkModule('server/index.js'))}
import { StdioServerTransport } from ${JSON.stringify(sdkModule('server/stdio.js'))}
import { CallToolRequestSchema, ListToolsRequestSchema } from ${JSON.stringify(sdkModule('types.js'))}

const data = process.env.CLAUDE_PLUGIN_DATA
const outbox = join(data, 'outbox')
mkdirSync(outbox, { recursive: true })
const experimental = Object.fromEntries(${JSON.stringify(declare)}.map((name) => [name, {}]))
const mcp = new Server({ name: 'chat', version: '1.0.0' }, { capabilities: { tools: {}, experimental }, instructions: ${JSON.stringify(CHANNEL_INSTRUCTIONS)} })
mcp.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: 'reply', description: 'Send a message back', inputSchema: { type: 'object', properties: { chat_id: { type: 'string' }, text: { type: 'string' } }, required: ['chat_id', 'text'] } },
    { name: 'push', description: 'Push a channel message now', inputSchema: { type: 'object', properties: { content: { type: 'string' }, meta: { type: 'object' } }, required: ['content'] } }
  ]
}))
mcp.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === 'push') {
    await mcp.notification({ method: 'notifications/claude/channel', params: request.params.arguments })
    return { content: [{ type: 'text', text: 'pushed' }] }
  }
  appendFileSync(join(data, 'replies.jsonl'), JSON.stringify(request.params.arguments) + '\\n')
  return { content: [{ type: 'text', text: 'sent' }] }
})
mcp.fallbackNotificationHandler = async (notification) => {
  appendFileSync(join(data, 'prompts.jsonl'), JSON.stringify(notification) + '\\n')
}
await mcp.connect(new StdioServerTransport())
let sending = false
setInterval(async () => {
  if (sending) return
  sending = true
  try {
    for (const file of readdirSync(outbox).filter((name) => name.endsWith('.json')).sort()) {
      const message = JSON.parse(readFileSync(join(outbox, file), 'utf8'))
      rmSync(join(outbox, file))
      await mcp.notification(message)
    }
  } finally {
    sending = false
  }
}, 20)
`
}
