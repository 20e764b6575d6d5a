// The system prompt: sections plugins contribute through the `prompt` service (the base text is
// a section too), then the working directory. Sections appear in plugin order (the plugin
// tree, as listeners are ordered), which stays the same when a plugin restarts, so the prompt is
// stable for provider prompt caching.
//
// Scoping (S3): `ctx.prompt.section(id, text)` and `ctx.get('prompt').section(ctx, id, text)`
// tie the section to the calling plugin; it is removed when that plugin is disposed.
// `section(id, text)` without a context returns the disposer for the caller to keep.
import { z } from 'zod'
import { defineContextProperty, definePlugin, type Context, type Disposable } from '../../src-shared/kernel'
import { compareKeys, type OrderKey } from '../../src-shared/kernel/registry'

export interface PromptSection {
  readonly id: string
  readonly text: string
  /** Name of the contributing plugin, when it passed its context. */
  readonly owner?: string
}

export interface SystemPromptService {
  /** Adds a section owned by `ctx`'s plugin (removed with it). Throws when the id is taken. */
  section(ctx: Context, id: string, text: string): Disposable
  /** Adds an unowned section (after every owned one); the disposer removes it. */
  section(id: string, text: string): Disposable
  sections(): readonly PromptSection[]
  render(env: PromptEnvironment): string
}

export interface PromptEnvironment {
  workspace: string
}

/** The scoped accessor (`ctx.prompt`). */
export interface ScopedPromptSections {
  section(id: string, text: string): Disposable
}

declare module '../../src-shared/kernel/types' {
  interface Services {
    prompt: SystemPromptService
  }
}

declare module '../../src-shared/kernel/context' {
  interface Context {
    /** Contribute system prompt sections; they go when this plugin is disposed. */
    readonly prompt: ScopedPromptSections
  }
}

/** Used only when no `prompt` service runs at all (a bare kernel, a test). */
export const DEFAULT_BASE_PROMPT = [
  "You are Seam, a coding agent working in the user's project.",
  'Use the tools to inspect and change files and to run commands; do not guess file contents.'
].join('\n')

/** `base`: text placed before every section (none by default: the base profile contributes it as a section). */
export const PromptConfigSchema = z.object({ base: z.string().optional() }).strict().prefault({})

interface Entry extends PromptSection {
  readonly key: OrderKey
}

export class SystemPromptSections implements SystemPromptService {
  private readonly byId = new Map<string, Entry>()
  private unowned = 0
  /** Rendered prompts by workspace, for the sections as they are now (emptied when one is added or removed). */
  private readonly rendered = new Map<string, string>()

  constructor(private readonly base?: string) {}

  section(ctxOrId: Context | string, idOrText: string, maybeText?: string): Disposable {
    if (typeof ctxOrId === 'string') return this.add(ctxOrId, idOrText, [Number.MAX_SAFE_INTEGER, this.unowned++], undefined)
    const ctx = ctxOrId
    return ctx.onDispose(this.add(idOrText, maybeText, ctx.runtime.nextEntryKey(), ctx.name))
  }

  sections(): readonly PromptSection[] {
    return [...this.byId.values()]
      .sort((a, b) => compareKeys(a.key, b.key))
      .map((e) => (e.owner === undefined ? { id: e.id, text: e.text } : { id: e.id, text: e.text, owner: e.owner }))
  }

  /** Rendered once per set of sections: the loop asks every step, and the same text comes back as the same string. */
  render(env: PromptEnvironment): string {
    let text = this.rendered.get(env.workspace)
    if (text === undefined) {
      text = renderSystemPrompt(this.base, this.sections(), env)
      this.rendered.set(env.workspace, text)
    }
    return text
  }

  private add(id: unknown, text: unknown, key: OrderKey, owner: string | undefined): Disposable {
    const who = owner === undefined ? 'prompt section' : `plugin "${owner}": prompt section`
    if (typeof id !== 'string' || id.length === 0) throw new Error(`${who}: id must be a non-empty string`)
    if (typeof text !== 'string') throw new Error(`${who} "${id}": text must be a string`)
    const taken = this.byId.get(id)
    if (taken) throw new Error(`${who} "${id}" is already contributed${taken.owner ? ` by plugin "${taken.owner}"` : ''}`)
    const entry: Entry = owner === undefined ? { id, text, key } : { id, text, key, owner }
    this.byId.set(id, entry)
    this.rendered.clear()
    return () => {
      if (this.byId.get(id) !== entry) return
      this.byId.delete(id)
      this.rendered.clear()
    }
  }
}

export function renderSystemPrompt(base: string | undefined, sections: readonly PromptSection[], env: PromptEnvironment): string {
  const parts: string[] = []
  if (base !== undefined && base.trim() !== '') parts.push(base)
  for (const section of sections) if (section.text.trim() !== '') parts.push(section.text)
  parts.push(`Working directory: ${env.workspace}`)
  return parts.join('\n\n')
}

/** Provides the `prompt` service. Config: `{ base?: string }`. */
export const promptPlugin = definePlugin({
  name: 'prompt',
  schema: PromptConfigSchema,
  apply(ctx, config) {
    ctx.provide('prompt', new SystemPromptSections(config.base))
  }
})

defineContextProperty('prompt', (ctx: Context): ScopedPromptSections => ({
  section(id, text) {
    const service = ctx.maybe('prompt')
    if (!service) throw new Error(`plugin "${ctx.name}": the prompt service is not available (apply promptPlugin and declare inject: ['prompt'])`)
    return service.section(ctx, id, text)
  }
}))
