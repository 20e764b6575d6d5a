#!/usr/bin/env node
// An MCP search server for WebSearch's MCP route: a real process speaking MCP over stdio through
// the official SDK's server, with one tool, `web_search {query}`, answering titles and URLs as
// structured content and as text (what MCP search servers such as Brave's return). Each query it
// receives is appended to $SEARCH_LOG.
import { appendFileSync } from 'node:fs'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'

const server = new McpServer({ name: 'test-search', version: '1.0.0' })
server.registerTool(
  'web_search',
  { description: 'Searches the web', inputSchema: { query: z.string() } },
  async ({ query }) => {
    if (process.env.SEARCH_LOG) appendFileSync(process.env.SEARCH_LOG, `${query}\n`)
    const results = [
      { title: `Release notes for ${query}`, url: 'https://docs.example.com/releases' },
      { title: 'A forum thread', url: 'https://forum.example.net/t/1' }
    ]
    return {
      content: [{ type: 'text', text: results.map((r) => `Title: ${r.title}\nURL: ${r.url}`).join('\n\n') }],
      structuredContent: { results }
    }
  }
)
await server.connect(new StdioServerTransport())
