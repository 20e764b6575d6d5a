// A server's tool as a Seam tool: `mcp__<server>__<tool>`, the server's JSON Schema as what the
// model sees and as the validator of the arguments (through a zod schema, so the pipeline names
// the failing field as for any tool), and the result mapped onto Seam's tool result.
import { createRequire } from 'node:module'
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { JsonObject, JsonValue, ToolDefinition, ToolOutput } from '@seam/sdk'
import type { ListedTool, ServerConnection } from './connection'
import { mcpToolName, toolNameProblem } from './names'
import { formatBytes } from './bytes'

export interface ResultLimits {
  /** Claude Code's MAX_MCP_OUTPUT_TOKENS (default 25,000): text past it is cut with a note. */
  maxOutputTokens: number
  /** A result larger than this (JSON bytes) is an error rather than a cut. */
  maxResultBytes: number
}

/** Rough token count as Claude Code estimates it for the cap: four characters a token. */
const CHARS_PER_TOKEN = 4

// One validator instance for every server: strict off (servers use keywords and formats Ajv
// does not know), but the schema itself must be valid JSON Schema. Made with the first server's
// tools, not when Seam starts (Ajv takes about 0.08 s of CPU to load).
const requireAjv = createRequire(import.meta.url)
let shared: Ajv | undefined
function validator(): Ajv {
  return (shared ??= new (requireAjv('ajv') as typeof import('ajv')).Ajv({ strict: false, allErrors: true, validateFormats: false }))
}

export type Adapted = { ok: true; tool: ToolDefinition<Record<string, unknown>> } | { ok: false; problem: string }

export function adaptTool(connection: ServerConnection, listed: ListedTool, timeoutMs: number, limits: ResultLimits): Adapted {
  const server = connection.name
  const nameProblem = toolNameProblem(server, listed.name)
  if (nameProblem !== undefined) return { ok: false, problem: nameProblem }
  const schema = checkSchema(listed.inputSchema)
  if (typeof schema === 'string') return { ok: false, problem: `tool "${listed.name}": its inputSchema is not valid JSON Schema: ${schema}` }
  const name = mcpToolName(server, listed.name)
  const inputSchema = z.record(z.string(), z.unknown()).superRefine((args, issue) => {
    if (schema.validate(args)) return
    for (const error of schema.validate.errors ?? []) issue.addIssue({ code: 'custom', path: pathOf(error), message: messageOf(error) })
  })
  const tool: ToolDefinition<Record<string, unknown>> = {
    name,
    description: listed.description,
    inputSchema,
    modelInputSchema: schema.json,
    timeoutMs,
    concurrent: true,
    // MCP tools ask by default (Claude Code does): the approval mode asks for side effects.
    sideEffects: true,
    async execute(args, exec) {
      const result = await connection.callTool(listed.name, args, exec.signal, timeoutMs)
      return mapResult(result, limits)
    }
  }
  return { ok: true, tool }
}

function checkSchema(raw: unknown): { json: JsonObject; validate: ValidateFunction } | string {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return `expected an object, got ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}`
  const { $schema: _dialect, ...json } = raw as JsonObject
  if (json.type !== 'object') return `the input must be an object ("type": "object"), got "type": ${JSON.stringify(json.type)}`
  const ajv = validator()
  if (!ajv.validateSchema(json)) return ajv.errorsText(ajv.errors, { dataVar: 'schema' })
  try {
    return { json, validate: ajv.compile(json) }
  } catch (error) {
    return (error as Error).message
  }
}

function pathOf(error: ErrorObject): Array<string | number> {
  const path: Array<string | number> = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (error.keyword === 'required') path.push(String((error.params as { missingProperty?: string }).missingProperty))
  if (error.keyword === 'additionalProperties') path.push(String((error.params as { additionalProperty?: string }).additionalProperty))
  return path
}

function messageOf(error: ErrorObject): string {
  if (error.keyword === 'required') return 'required'
  if (error.keyword === 'additionalProperties') return 'not allowed by the tool\'s schema'
  return error.message ?? error.keyword
}

/**
 * An MCP result as Seam's: text blocks joined; images, audio and binary resources described
 * (the model gets text); `structuredContent` as JSON when there is no text; `isError` as an error.
 * `structured` keeps what Claude Code hands PostToolUse hooks as `tool_response`: the content
 * array (plus `structuredContent` when the server sent it).
 */
export function mapResult(result: CallToolResult, limits: ResultLimits): ToolOutput {
  const size = Buffer.byteLength(JSON.stringify(result))
  if (size > limits.maxResultBytes) {
    return { isError: true, content: `The MCP tool returned ${formatBytes(size)}, more than the ${formatBytes(limits.maxResultBytes)} Seam accepts (maxResultBytes); the result was dropped.` }
  }
  const blocks = Array.isArray(result.content) ? result.content : []
  const parts = blocks.map(describeBlock)
  if (result.structuredContent !== undefined && !blocks.some((block) => block.type === 'text')) parts.push(JSON.stringify(result.structuredContent))
  const structured: { content: JsonValue; structuredContent?: JsonValue } = { content: blocks as unknown as JsonValue }
  if (result.structuredContent !== undefined) structured.structuredContent = result.structuredContent as JsonValue
  return { content: capText(parts.join('\n'), limits.maxOutputTokens), isError: result.isError === true, structured }
}

function describeBlock(block: CallToolResult['content'][number]): string {
  switch (block.type) {
    case 'text':
      return block.text
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${formatBytes(Math.floor((block.data.length * 3) / 4))}]`
    case 'resource': {
      const resource = block.resource
      if ('text' in resource && typeof resource.text === 'string') return `[resource ${resource.uri}]\n${resource.text}`
      return `[resource ${resource.uri}: ${resource.mimeType ?? 'binary'}, ${formatBytes(Math.floor(((resource as { blob: string }).blob.length * 3) / 4))}]`
    }
    case 'resource_link':
      return `[resource link ${block.uri}${block.name ? ` (${block.name})` : ''}${block.description ? `: ${block.description}` : ''}]`
    default:
      return JSON.stringify(block)
  }
}

/** Cuts text past the token cap, saying so (as Claude Code does). */
export function capText(text: string, maxTokens: number): string {
  const maxChars = maxTokens * CHARS_PER_TOKEN
  if (text.length <= maxChars) return text
  const tokens = Math.ceil(text.length / CHARS_PER_TOKEN)
  return `${text.slice(0, maxChars)}\n\n[Output cut: the MCP tool returned about ${tokens} tokens, more than the ${maxTokens}-token limit (MAX_MCP_OUTPUT_TOKENS).]`
}
