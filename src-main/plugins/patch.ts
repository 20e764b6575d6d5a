// Parsing a cordis.patch.yml layer: a YAML list of rows, each validated with zod, each keeping
// its position so every error can name the file, the row and the line. YAML is parsed with the
// default core schema and never evaluates anything; an unknown tag is an error.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type Pair } from 'yaml'
import { z } from 'zod'
import { formatIssuePath } from '../../src-shared/validation'
import { entryIdSchema, profileEntrySchema, ProfileError, type ProfileEntry } from './profile'

export type PatchAction =
  | { kind: 'insert'; entries: ProfileEntry[]; before?: string; after?: string }
  | { kind: 'update'; id: string; config?: { value: unknown }; disabled?: boolean }
  | { kind: 'remove'; id: string }

export interface PatchRow {
  action: PatchAction
  /** 1-based position of the row in the file. */
  row: number
  /** 1-based line of the row's first key. */
  line: number
  /** The line of a field inside the row (`['config', 'timeoutMs']`), or the row's line. */
  lineOf(path: readonly PropertyKey[]): number
}

const insertRowSchema = z
  .strictObject({
    insert: z.array(profileEntrySchema).min(1, 'insert needs at least one entry'),
    before: entryIdSchema.optional(),
    after: entryIdSchema.optional()
  })
  .refine((row) => row.before === undefined || row.after === undefined, { message: 'use before or after, not both', path: ['after'] })

const updateRowSchema = z.strictObject({
  id: entryIdSchema,
  config: z.unknown().optional(),
  disabled: z.boolean().optional()
})

const removeRowSchema = z.strictObject({
  id: entryIdSchema,
  remove: z.literal(true, 'remove must be true (to keep an entry, delete the row)')
})

const KNOWN_KEYS = ['insert', 'before', 'after', 'id', 'config', 'disabled', 'remove']

/** Parses one layer. Throws a ProfileError naming the file and line for every kind of mistake. */
export function parsePatch(file: string, text: string): PatchRow[] {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true })
  const problem = doc.errors[0] ?? doc.warnings[0]
  if (problem) {
    const line = problem.linePos?.[0].line
    throw new ProfileError(`${where(file, line)}: invalid YAML: ${problem.message.split('\n')[0]}`, file, line)
  }
  const lineAt = (node: Node | null | undefined, fallback: number): number =>
    node?.range ? lineCounter.linePos(node.range[0]).line : fallback
  const contents = doc.contents
  if (contents === null || (isScalar(contents) && contents.value === null)) return []
  if (!isSeq(contents)) {
    const line = lineAt(contents, 1)
    throw new ProfileError(`${where(file, line)}: a patch file is a YAML list of rows (- insert: ..., - id: ...)`, file, line)
  }
  return contents.items.map((item, index) => {
    const node = item as Node
    const line = lineAt(node, 1)
    const lineOf = (path: readonly PropertyKey[]): number => lineAt(findNode(node, path), line)
    const rowNumber = index + 1
    const fail = (message: string, path: readonly PropertyKey[] = []): never => {
      const at = lineOf(path)
      throw new ProfileError(`${where(file, at)}: row ${rowNumber}: ${message}`, file, at, path.length ? formatIssuePath(path) : undefined)
    }
    const value = toJS(doc, node)
    if (!isMap(node) || typeof value !== 'object' || value === null || Array.isArray(value)) {
      return fail(`a row is a mapping with insert: or id: (got ${describe(value)})`)
    }
    const keys = Object.keys(value)
    const unknown = keys.find((key) => !KNOWN_KEYS.includes(key))
    if (unknown !== undefined) return fail(`unknown key "${unknown}" (a row uses ${KNOWN_KEYS.join(', ')})`, [unknown])
    const has = (key: string) => keys.includes(key)
    let schema: z.ZodType
    if (has('insert')) schema = insertRowSchema
    else if (has('remove')) schema = removeRowSchema
    else if (has('id')) schema = updateRowSchema
    else return fail(`a row needs insert: or id: (got ${keys.length ? `keys ${keys.join(', ')}` : 'an empty mapping'})`)
    if (!has('insert') && !has('config') && !has('disabled') && !has('remove')) {
      return fail(`row for id "${String((value as { id: unknown }).id)}" has no action (use config:, disabled: or remove: true)`)
    }
    const result = schema.safeParse(value)
    if (!result.success) {
      const issue = result.error.issues[0]
      if (issue.code === 'unrecognized_keys') {
        const prefix = issue.path.length ? `${formatIssuePath(issue.path)}: ` : ''
        return fail(`${prefix}unknown key "${issue.keys.join('", "')}"`, [...issue.path, issue.keys[0]])
      }
      return fail(`${formatIssuePath(issue.path)}: ${issue.message}`, issue.path)
    }
    return { action: toAction(result.data as RowData), row: rowNumber, line, lineOf }
  })
}

type RowData = z.infer<typeof insertRowSchema> | z.infer<typeof updateRowSchema> | z.infer<typeof removeRowSchema>

function toAction(row: RowData): PatchAction {
  if ('insert' in row) return { kind: 'insert', entries: row.insert, before: row.before, after: row.after }
  if ('remove' in row) return { kind: 'remove', id: row.id }
  const action: PatchAction = { kind: 'update', id: row.id }
  // `config:` left empty clears the config (the plugin's schema defaults apply).
  if ('config' in row) action.config = { value: row.config ?? undefined }
  if (row.disabled !== undefined) action.disabled = row.disabled
  return action
}

/** `file:line`, or just `file` when the line is unknown. */
export function where(file: string, line: number | undefined): string {
  return line === undefined ? file : `${file}:${line}`
}

function toJS(doc: Document, node: Node): unknown {
  return node.toJS(doc, { maxAliasCount: 100 })
}

/** The deepest node along `path` (map keys and sequence indexes); stops where the path leaves the tree. */
function findNode(root: Node, path: readonly PropertyKey[]): Node | undefined {
  let node: Node | undefined = root
  let found: Node | undefined = root
  for (const part of path) {
    if (isMap(node)) {
      const items: unknown[] = node.items
      const pair = items.find((p): p is Pair => isPair(p) && isScalar(p.key) && String(p.key.value) === String(part))
      if (!pair) break
      // Point at the value, or at the key when the value is empty (`config:` with nothing after it).
      node = (pair.value as Node | null) ?? (pair.key as Node)
    } else if (isSeq(node) && typeof part === 'number') {
      node = node.items[part] as Node | undefined
    } else break
    if (node) found = node
    else break
  }
  return found
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  return typeof value
}
