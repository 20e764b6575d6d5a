// Issue 16 "Slash commands and mentions": `@path` in a message attaches the file's contents for the
// model, read through the Read tool's logic, visibly (mentions/attached), and logged so that a
// reloaded session rebuilds the same request ("model-visible means logged").
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createReadTool } from '../tools/builtin/read'
import { createLoopFixture, type LoopFixture } from './loop-fixture'
import { expandMentions, mentionToken, parseMentions } from './mentions'
import { buildModelRequest } from './step'

describe('parseMentions', () => {
  it('finds @path and @"quoted path" after white space, once each, without trailing punctuation', () => {
    expect(parseMentions('look at @src/a.ts, then @"docs/my notes.md" and @src/a.ts.')).toEqual(['src/a.ts', 'docs/my notes.md'])
    expect(parseMentions('@first.ts\n(@second.ts)')).toEqual(['first.ts'])
  })

  it('leaves out e-mail addresses, code spans and fenced blocks', () => {
    expect(parseMentions('mail me@example.com about `@decorator` and\n```ts\n@Component()\n```\nok @real.ts')).toEqual(['real.ts'])
  })

  it('mentionToken quotes a path with white space, so it parses back to itself', () => {
    for (const path of ['src/x.ts', 'my notes/a b.md']) expect(parseMentions(`see ${mentionToken(path)} now`)).toEqual([path])
  })
})

describe('expandMentions', () => {
  let root: string
  let workspace: string
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'seam-mentions-')))
    workspace = join(root, 'ws')
    await mkdir(join(workspace, 'src'), { recursive: true })
  })
  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })
  const context = (read = createReadTool({ readDefaultLimit: 3 })) => ({ workspace, sessionId: 's', read: read as never, signal: new AbortController().signal })

  it('attaches what Read returns (line numbers, its line window) and says why a mention was not attached', async () => {
    await writeFile(join(workspace, 'src/a.ts'), 'one\ntwo\nthree\nfour\nfive\n')
    await writeFile(join(workspace, 'blob.bin'), Buffer.from([0, 1, 2, 3]))
    await writeFile(join(root, 'outside.txt'), 'secret\n')
    await symlink(join(root, 'outside.txt'), join(workspace, 'link.txt'))
    const files = await expandMentions('@src/a.ts @missing.ts @../outside.txt @link.txt @blob.bin @src', context())
    expect(files[0]).toEqual({
      mention: 'src/a.ts',
      path: join(workspace, 'src/a.ts'),
      content: '1\tone\n2\ttwo\n3\tthree\n\n(Showing lines 1-3 of 6. Use offset and limit to read other lines.)'
    })
    expect(files.slice(1).map((f) => [f.mention, f.content, f.error])).toEqual([
      ['missing.ts', undefined, 'not attached: no file missing.ts in the workspace'],
      ['../outside.txt', undefined, `not attached: ${join(root, 'outside.txt')} is outside the workspace`],
      ['link.txt', undefined, `not attached: ${join(workspace, 'link.txt')} leads outside the workspace`],
      ['blob.bin', undefined, `not attached: ${join(workspace, 'blob.bin')} is a binary file; Read only shows text files.`],
      ['src', undefined, `not attached: ${join(workspace, 'src')} is not a file`]
    ])
  })

  it('attaches nothing when the session has no Read tool, and says so', async () => {
    await writeFile(join(workspace, 'a.txt'), 'x\n')
    const [file] = await expandMentions('@a.txt', { ...context(), read: undefined })
    expect(file).toEqual({ mention: 'a.txt', path: join(workspace, 'a.txt'), error: 'not attached: the Read tool is not available in this session' })
  })
})

describe('mentions in a turn', () => {
  let fixture: LoopFixture | undefined
  afterEach(async () => {
    await fixture?.cleanup()
    fixture = undefined
  })

  it('logs mentions/attached after the message, the model gets the file after the prompt, and the reloaded log rebuilds the request', async () => {
    const f = (fixture = await createLoopFixture({
      script: [{ text: 'Seen it.' }],
      keepRequests: true,
      setup: (_kernel, tools) => void tools.register(createReadTool())
    }))
    await writeFile(join(f.dir, 'notes.md'), 'remember the milk\n')
    f.agent.send('summarise @notes.md and @gone.md')
    await f.agent.whenIdle()

    const types = f.types()
    expect(types.indexOf('mentions/attached')).toBe(types.indexOf('user/message') + 1)
    const [attached] = f.ofType('mentions/attached')
    expect(attached.files.map((file) => [file.mention, file.error ?? 'attached'])).toEqual([
      ['notes.md', 'attached'],
      ['gone.md', 'not attached: no file gone.md in the workspace']
    ])

    const request = f.model.requests[0]!
    const user = request.messages.find((m) => m.role === 'user')
    expect(user?.role === 'user' ? user.content : '').toBe(
      `summarise @notes.md and @gone.md\n\nCalled the Read tool with the following input: {"file_path":${JSON.stringify(join(f.dir, 'notes.md'))}}\n\nResult of calling the Read tool:\n1\tremember the milk\n2\t`
    )

    // Resume: the file may have changed since; the request is rebuilt from the log, not the disk.
    await writeFile(join(f.dir, 'notes.md'), 'changed\n')
    await f.agent.close()
    await f.log.close()
    const reloaded = await f.store.open(f.log.id)
    const at = reloaded.events.findIndex((e) => e.type === 'assistant/message')
    const rebuilt = buildModelRequest(reloaded.events.slice(0, at))
    expect(rebuilt.messages).toEqual(request.messages)
    await reloaded.close()
  })
})
