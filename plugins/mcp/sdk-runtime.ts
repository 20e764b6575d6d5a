// What a server connection needs from the MCP SDK at run time. connection.ts loads this module on
// the first connection, not when Seam starts: a session without MCP servers, `seam --help` and
// most tests never load the SDK (about 0.16 s of CPU from node_modules; the build bundles it as a
// chunk of its own: electron.vite.config.ts).
export { Client } from '@modelcontextprotocol/sdk/client/index.js'
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
export { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
export { ProcessTransport } from './stdio-transport'
