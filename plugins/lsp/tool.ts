// The `LSP` tool, offered while at least one plugin LSP server is configured. Its name, operations
// and input fields are Claude Code's (operation, filePath, line, character: 1-based as editors show
// them; query for workspaceSymbol). The wording of its results is Seam's (see README).
import { existsSync } from 'node:fs'
import { extname, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { z } from 'zod'
import { defineTool, type ToolDefinition } from '@seam/sdk'
import { resolveToolPath } from '@seam/sdk/node'
import type {
  CallHierarchyIncomingCall,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  DocumentSymbol,
  Hover,
  Location,
  LocationLink,
  MarkedString,
  SymbolInformation,
  WorkspaceSymbol
} from 'vscode-languageserver-protocol/node.js'
import type { LspManager } from './manager'
import type { LanguageServer } from './server'

export const OPERATIONS = [
  'goToDefinition',
  'findReferences',
  'hover',
  'documentSymbol',
  'workspaceSymbol',
  'goToImplementation',
  'prepareCallHierarchy',
  'incomingCalls',
  'outgoingCalls'
] as const

export const LspInputSchema = z.strictObject({
  operation: z.enum(OPERATIONS).describe('The LSP operation to perform'),
  filePath: z.string().min(1).describe('The absolute or relative path to the file'),
  line: z.number().int().positive().describe('The line number (1-based, as shown in editors)'),
  character: z.number().int().positive().describe('The character offset (1-based, as shown in editors)'),
  query: z.string().optional().describe('For workspaceSymbol: the symbol name, or part of it, to search for')
})
export type LspInput = z.output<typeof LspInputSchema>

const DESCRIPTION = [
  'Asks the language servers of installed plugins about code: where a symbol is defined or implemented, where it is used, its type and documentation, the symbols of a file or of the workspace, and call hierarchies.',
  '',
  'Operations:',
  '- goToDefinition: where the symbol at the position is defined',
  '- findReferences: every use of the symbol at the position',
  '- hover: type information and documentation of the symbol at the position',
  '- documentSymbol: the symbols (functions, classes, variables) of the file',
  '- workspaceSymbol: symbols across the workspace whose name matches `query`',
  '- goToImplementation: implementations of the interface or abstract method at the position',
  '- prepareCallHierarchy: the call hierarchy item (function or method) at the position',
  '- incomingCalls: the functions and methods that call the one at the position',
  '- outgoingCalls: the functions and methods that the one at the position calls',
  '',
  'Every operation takes filePath, line and character; line and character are 1-based, as editors show them. workspaceSymbol also takes query: give it, as most servers return nothing for an empty one.',
  'The file type must be served by a configured LSP server; otherwise the call fails and says which types are served.'
].join('\n')

const SYMBOL_KINDS = ['', 'File', 'Module', 'Namespace', 'Package', 'Class', 'Method', 'Property', 'Field', 'Constructor', 'Enum', 'Interface', 'Function', 'Variable', 'Constant', 'String', 'Number', 'Boolean', 'Array', 'Object', 'Key', 'Null', 'EnumMember', 'Struct', 'Event', 'Operator', 'TypeParameter']

export function lspTool(manager: LspManager, syncOpened: (server: LanguageServer, file: string, sessionId: string) => Promise<string>): ToolDefinition<LspInput> {
  return defineTool({
    name: 'LSP',
    description: DESCRIPTION,
    inputSchema: LspInputSchema,
    concurrent: true,
    async execute(input, exec) {
      const file = resolveToolPath(exec.cwd, input.filePath)
      const server = manager.serverFor(file)
      if (server === undefined) {
        const served = manager.extensions()
        return { isError: true, content: `No LSP server is configured for ${extname(file) || 'this'} files. The plugins' LSP servers serve: ${served.join(', ') || 'nothing'}.` }
      }
      if (!existsSync(file)) return { isError: true, content: `File does not exist: ${input.filePath}` }
      let uri: string
      try {
        uri = await syncOpened(server, file, exec.sessionId)
      } catch (error) {
        return { isError: true, content: (error as Error).message }
      }
      const position = { line: input.line - 1, character: input.character - 1 }
      const at = { textDocument: { uri }, position }
      const show = new Shown(exec.cwd)
      try {
        switch (input.operation) {
          case 'goToDefinition':
            return { content: show.locations(await server.request('textDocument/definition', at), 'definition', 'No definition found at this position.') }
          case 'goToImplementation':
            return { content: show.locations(await server.request('textDocument/implementation', at), 'implementation', 'No implementation found at this position.') }
          case 'findReferences':
            return { content: show.references(await server.request<Location[] | null>('textDocument/references', { ...at, context: { includeDeclaration: true } })) }
          case 'hover':
            return { content: show.hover(await server.request<Hover | null>('textDocument/hover', at), input) }
          case 'documentSymbol':
            return { content: show.documentSymbols(await server.request<Array<DocumentSymbol | SymbolInformation> | null>('textDocument/documentSymbol', { textDocument: { uri } }), file) }
          case 'workspaceSymbol':
            return { content: show.workspaceSymbols(await server.request<Array<SymbolInformation | WorkspaceSymbol> | null>('workspace/symbol', { query: input.query ?? '' }), input.query ?? '') }
          case 'prepareCallHierarchy':
            return { content: show.callItems(await server.request<CallHierarchyItem[] | null>('textDocument/prepareCallHierarchy', at)) }
          case 'incomingCalls':
          case 'outgoingCalls': {
            const items = (await server.request<CallHierarchyItem[] | null>('textDocument/prepareCallHierarchy', at)) ?? []
            if (items.length === 0) return { content: 'No function or method at this position.' }
            if (input.operation === 'incomingCalls') {
              const calls = (await server.request<CallHierarchyIncomingCall[] | null>('callHierarchy/incomingCalls', { item: items[0] })) ?? []
              return { content: show.calls(`Calls to ${items[0].name}`, calls.map((c) => ({ item: c.from, ranges: c.fromRanges, file: c.from.uri }))) }
            }
            const calls = (await server.request<CallHierarchyOutgoingCall[] | null>('callHierarchy/outgoingCalls', { item: items[0] })) ?? []
            return { content: show.calls(`Calls from ${items[0].name}`, calls.map((c) => ({ item: c.to, ranges: c.fromRanges, file: items[0].uri }))) }
          }
        }
      } catch (error) {
        return { isError: true, content: `${server.label}: ${input.operation} failed: ${(error as Error).message}` }
      }
    }
  })
}

/** Results as text: paths relative to the session's directory, positions 1-based. */
class Shown {
  constructor(private readonly cwd: string) {}

  path(uri: string): string {
    if (!uri.startsWith('file:')) return uri
    const file = fileURLToPath(uri)
    const shown = relative(this.cwd, file)
    return shown.startsWith('..') || shown === '' ? file : shown
  }

  at(uri: string, range: { start: { line: number; character: number } }): string {
    return `${this.path(uri)}:${range.start.line + 1}:${range.start.character + 1}`
  }

  locations(result: Location | Location[] | LocationLink[] | null, what: string, none: string): string {
    const list = result === null ? [] : Array.isArray(result) ? result : [result]
    const places = list.map((l) => ('targetUri' in l ? this.at(l.targetUri, l.targetSelectionRange) : this.at(l.uri, l.range)))
    if (places.length === 0) return none
    if (places.length === 1) return `Found 1 ${what}:\n  ${places[0]}`
    return `Found ${places.length} ${what}s:\n${places.map((p) => `  ${p}`).join('\n')}`
  }

  references(result: Location[] | null): string {
    const list = result ?? []
    if (list.length === 0) return 'No references found at this position.'
    const byFile = new Map<string, string[]>()
    for (const l of list) {
      const lines = byFile.get(this.path(l.uri)) ?? []
      lines.push(`  Line ${l.range.start.line + 1}:${l.range.start.character + 1}`)
      byFile.set(this.path(l.uri), lines)
    }
    const files = [...byFile].map(([file, lines]) => `${file}:\n${lines.join('\n')}`)
    return `Found ${list.length} reference${list.length === 1 ? '' : 's'} in ${byFile.size} file${byFile.size === 1 ? '' : 's'}:\n\n${files.join('\n\n')}`
  }

  hover(result: Hover | null, input: LspInput): string {
    const text = result === null ? '' : hoverText(result.contents).trim()
    if (text === '') return `No hover information at line ${input.line}, character ${input.character}.`
    return `Hover at line ${input.line}, character ${input.character}:\n\n${text}`
  }

  documentSymbols(result: Array<DocumentSymbol | SymbolInformation> | null, file: string): string {
    const list = result ?? []
    if (list.length === 0) return `No symbols in ${this.path(pathToFileURL(file).href)}.`
    const lines: string[] = []
    const walk = (symbols: Array<DocumentSymbol | SymbolInformation>, depth: number) => {
      for (const s of symbols) {
        const range = 'location' in s ? s.location.range : s.selectionRange
        lines.push(`${'  '.repeat(depth)}${s.name} (${SYMBOL_KINDS[s.kind] ?? 'Symbol'}) - Line ${range.start.line + 1}`)
        if ('children' in s && s.children !== undefined) walk(s.children, depth + 1)
      }
    }
    walk(list, 0)
    return `Symbols in ${this.path(pathToFileURL(file).href)}:\n${lines.join('\n')}`
  }

  workspaceSymbols(result: Array<SymbolInformation | WorkspaceSymbol> | null, query: string): string {
    const list = result ?? []
    if (list.length === 0) return `No symbols match ${JSON.stringify(query)} in the workspace.`
    const lines = list.map((s) => {
      const where = 'range' in s.location ? this.at(s.location.uri, s.location.range) : this.path(s.location.uri)
      return `  ${s.name} (${SYMBOL_KINDS[s.kind] ?? 'Symbol'}) - ${where}`
    })
    return `Found ${list.length} symbol${list.length === 1 ? '' : 's'} matching ${JSON.stringify(query)}:\n${lines.join('\n')}`
  }

  callItems(result: CallHierarchyItem[] | null): string {
    const list = result ?? []
    if (list.length === 0) return 'No function or method at this position.'
    return list.map((item) => `${item.name} (${SYMBOL_KINDS[item.kind] ?? 'Symbol'}) - ${this.at(item.uri, item.selectionRange)}${item.detail ? ` [${item.detail}]` : ''}`).join('\n')
  }

  calls(title: string, calls: Array<{ item: CallHierarchyItem; ranges: Array<{ start: { line: number; character: number } }>; file: string }>): string {
    if (calls.length === 0) return `${title}: none found.`
    const lines = calls.map((c) => `  ${c.item.name} (${SYMBOL_KINDS[c.item.kind] ?? 'Symbol'}) - ${this.at(c.item.uri, c.item.selectionRange)}; at ${c.ranges.map((r) => this.at(c.file, r)).join(', ')}`)
    return `${title} (${calls.length}):\n${lines.join('\n')}`
  }
}

function hoverText(contents: Hover['contents']): string {
  const one = (part: MarkedString | { kind: string; value: string }): string => (typeof part === 'string' ? part : 'language' in part ? `\`\`\`${part.language}\n${part.value}\n\`\`\`` : part.value)
  return Array.isArray(contents) ? contents.map(one).join('\n\n') : one(contents)
}
