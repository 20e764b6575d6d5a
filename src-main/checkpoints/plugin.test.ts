// Checkpoints taken by the `checkpoints` plugin around real Write and Edit calls of a real agent
// loop (scripted model at the provider edge only), and reverting and rewinding from the log.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { SessionEventOf } from '../../src-shared/session/events'
import { createLoopFixture, type LoopFixture } from '../agent/loop-fixture'
import { checkpointFolderOf } from '../session/checkpoint-store'
import { createEditTool } from '../tools/builtin/edit'
import { createWriteTool } from '../tools/builtin/write'
import { checkpointsPlugin } from './plugin'
import { revertTurn, turnChanges } from './service'

let fixture: LoopFixture | undefined
afterEach(async () => {
  await fixture?.cleanup()
  fixture = undefined
})

type Reply = { text?: string; toolCalls?: Array<{ name: string; args: Record<string, unknown> }> }

/** A loop with Write, Edit and the checkpoints plugin; each turn plays `turns[i]` then says done. */
async function loop(turns: Reply[][], config?: unknown, extra?: (f: { register: LoopFixture['tools']['register'] }) => void): Promise<LoopFixture> {
  const replies = turns.flatMap((steps) => [...steps, { text: 'done' }])
  fixture = await createLoopFixture({
    script: replies,
    setup(kernel, tools) {
      tools.register(createWriteTool())
      tools.register(createEditTool())
      extra?.({ register: tools.register.bind(tools) })
      kernel.plugin(checkpointsPlugin, config)
    }
  })
  return fixture
}

async function turn(f: LoopFixture, prompt: string): Promise<string> {
  f.agent.send(prompt)
  await f.agent.whenIdle()
  return f.ofType('turn/start').at(-1)!.turnId
}

describe('checkpoints plugin', () => {
  it('logs the file before a Write runs (synced to the file before the tool starts) and the file after it', async () => {
    const seenByTool: string[] = []
    const f = await loop([[{ toolCalls: [{ name: 'Probe', args: {} }] }], [{ toolCalls: [{ name: 'Write', args: { file_path: 'a.txt', content: 'two\n' } }] }]], undefined, ({ register }) =>
      register({
        name: 'Probe',
        description: 'reads the session file from disk, then writes a.txt',
        inputSchema: z.object({}),
        sideEffects: true,
        changedFiles: (_args, cwd) => [join(cwd, 'a.txt')],
        async execute(_args, exec) {
          // What is on disk when the tool starts: the checkpoint must already be there.
          const lines = readFileSync(fixture!.log.path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string })
          seenByTool.push(...lines.map((l) => l.type))
          await writeFile(join(exec.cwd, 'a.txt'), 'one\n')
          return { content: 'probed' }
        }
      })
    )
    const first = await turn(f, 'probe')
    expect(seenByTool.at(-1)).toBe('file/checkpoint')
    const second = await turn(f, 'write')
    const [probe, write] = f.ofType('file/checkpoint')
    expect(probe).toMatchObject({ turnId: first, tool: 'Probe', path: join(f.dir, 'a.txt'), before: { kind: 'absent' } })
    expect(write).toMatchObject({ turnId: second, tool: 'Write', before: { kind: 'file', size: 4 } })
    const changed = f.ofType('file/changed')
    expect(changed.map((e) => e.after.kind)).toEqual(['file', 'file'])
    // Order in the log: tool/call, file/checkpoint, file/changed, tool/result.
    const types = f.types().filter((t) => ['tool/call', 'file/checkpoint', 'file/changed', 'tool/result'].includes(t))
    expect(types).toEqual(['tool/call', 'file/checkpoint', 'file/changed', 'tool/result', 'tool/call', 'file/checkpoint', 'file/changed', 'tool/result'])
  })

  it('keeps each content once: the same bytes checkpointed twice are one blob', async () => {
    const f = await loop([[{ toolCalls: [{ name: 'Write', args: { file_path: 'a.txt', content: 'same\n' } }] }], [{ toolCalls: [{ name: 'Write', args: { file_path: 'b.txt', content: 'same\n' } }] }], [{ toolCalls: [{ name: 'Edit', args: { file_path: 'b.txt', old_string: 'same', new_string: 'other' } }] }]])
    await turn(f, 'one')
    await turn(f, 'two')
    await turn(f, 'three')
    const blobs = readdirSync(checkpointFolderOf(f.log.path)).filter((n) => !n.startsWith('.'))
    // "same\n" (after a, after b, before the Edit) and "other\n": two blobs.
    expect(blobs).toHaveLength(2)
    const shas = f.ofType('file/changed').map((e) => (e.after.kind === 'file' ? e.after.sha256 : ''))
    expect(shas[0]).toBe(shas[1])
  })

  it('does not keep a file over the size limit; reverting it is refused with the reason', async () => {
    const f = await loop([[{ toolCalls: [{ name: 'Write', args: { file_path: 'big.txt', content: 'small' } }] }]], { maxFileBytes: 16 })
    await writeFile(join(f.dir, 'big.txt'), 'x'.repeat(100))
    const turnId = await turn(f, 'overwrite big')
    const [checkpoint] = f.ofType('file/checkpoint')
    expect(checkpoint.before).toEqual({ kind: 'unsaved', reason: 'it is 100 bytes, over the 16 bytes checkpoint limit', size: 100 })
    const [change] = await turnChanges(f.log, turnId)
    expect(change).toMatchObject({ revertible: false, reason: 'Not kept before the turn: it is 100 bytes, over the 16 bytes checkpoint limit.' })
    const outcome = await revertTurn(f.log, turnId, undefined)
    expect(outcome.skipped).toEqual([{ path: join(f.dir, 'big.txt'), reason: 'its content before was not kept: it is 100 bytes, over the 16 bytes checkpoint limit' }])
    expect(await readFile(join(f.dir, 'big.txt'), 'utf8')).toBe('small')
  })

  it('does not run the tool when its checkpoint cannot be saved (CHECKPOINT_FAILED), so nothing changes that could not be taken back', async () => {
    const f = await loop([[{ toolCalls: [{ name: 'Write', args: { file_path: 'a.txt', content: 'new' } }] }]])
    await writeFile(join(f.dir, 'a.txt'), 'old')
    // A file where the blob folder goes: no blob can be written into it.
    await writeFile(checkpointFolderOf(f.log.path), 'in the way')
    await turn(f, 'write')
    const [result] = f.ofType('tool/result')
    expect(result).toMatchObject({ isError: true, code: 'CHECKPOINT_FAILED' })
    expect(result.content).toMatch(/^Tool "Write" was not run: the checkpoint of the file it changes could not be saved/)
    expect(await readFile(join(f.dir, 'a.txt'), 'utf8')).toBe('old')
  })
})

describe('revert', () => {
  it('puts a turn\'s files back from the session folder after the session is reopened from disk (a host restart)', async () => {
    const f = await loop([[{ toolCalls: [{ name: 'Write', args: { file_path: 'new.txt', content: 'created\n' } }, { name: 'Edit', args: { file_path: 'old.txt', old_string: 'v1', new_string: 'v2' } }] }]])
    await writeFile(join(f.dir, 'old.txt'), 'v1\n')
    const turnId = await turn(f, 'change both')
    expect(await readFile(join(f.dir, 'old.txt'), 'utf8')).toBe('v2\n')
    await f.agent.close('closed')
    await f.log.close()

    const reopened = await f.store.open(f.log.id)
    const changes = await turnChanges(reopened, turnId)
    expect(changes.map((c) => [c.path.slice(f.dir.length + 1), c.status, c.before, c.after])).toEqual([
      ['new.txt', 'current', { kind: 'absent' }, { kind: 'text', text: 'created\n' }],
      ['old.txt', 'current', { kind: 'text', text: 'v1\n' }, { kind: 'text', text: 'v2\n' }]
    ])
    const outcome = await revertTurn(reopened, turnId, undefined)
    expect(outcome.status).toBe('done')
    expect(existsSync(join(f.dir, 'new.txt'))).toBe(false)
    expect(await readFile(join(f.dir, 'old.txt'), 'utf8')).toBe('v1\n')
    const revert = reopened.events.at(-1) as SessionEventOf<'revert'>
    expect(revert).toMatchObject({ type: 'revert', scope: 'turn', turnId, files: [{ to: { kind: 'absent' }, conflict: false }, { to: { kind: 'file' }, conflict: false }] })
    // The revert is durable: it is in the file.
    expect(readFileSync(reopened.path, 'utf8')).toContain('"type":"revert"')
    expect((await turnChanges(reopened, turnId)).map((c) => c.status)).toEqual(['reverted', 'reverted'])
    await reopened.close()
  })

  it('reverts one file of a turn and leaves the others', async () => {
    const f = await loop([[{ toolCalls: [{ name: 'Write', args: { file_path: 'a.txt', content: 'A' } }, { name: 'Write', args: { file_path: 'b.txt', content: 'B' } }] }]])
    const turnId = await turn(f, 'two files')
    const outcome = await revertTurn(f.log, turnId, join(f.dir, 'a.txt'))
    expect(outcome.files.map((file) => file.path)).toEqual([join(f.dir, 'a.txt')])
    expect(existsSync(join(f.dir, 'a.txt'))).toBe(false)
    expect(await readFile(join(f.dir, 'b.txt'), 'utf8')).toBe('B')
    expect(f.log.events.at(-1)).toMatchObject({ type: 'revert', scope: 'file' })
  })

  it('asks first when the file changed since the turn (the user edited it): nothing changes until forced', async () => {
    const f = await loop([[{ toolCalls: [{ name: 'Write', args: { file_path: 'a.txt', content: 'model\n' } }] }]])
    await writeFile(join(f.dir, 'a.txt'), 'mine\n')
    const turnId = await turn(f, 'write')
    await writeFile(join(f.dir, 'a.txt'), 'edited by hand\n')
    const before = f.log.events.length
    const asked = await revertTurn(f.log, turnId, undefined)
    expect(asked.status).toBe('conflict')
    expect(asked.files).toEqual([
      { path: join(f.dir, 'a.txt'), to: { kind: 'text', text: 'mine\n' }, expected: { kind: 'text', text: 'model\n' }, current: { kind: 'text', text: 'edited by hand\n' }, conflict: true }
    ])
    expect(f.log.events.length).toBe(before)
    expect(await readFile(join(f.dir, 'a.txt'), 'utf8')).toBe('edited by hand\n')
    const forced = await revertTurn(f.log, turnId, undefined, { force: true })
    expect(forced.status).toBe('done')
    expect(await readFile(join(f.dir, 'a.txt'), 'utf8')).toBe('mine\n')
    // What was overwritten is kept too.
    const revert = f.log.events.at(-1) as SessionEventOf<'revert'>
    expect(revert.files[0]).toMatchObject({ conflict: true, replaced: { kind: 'file', size: 15 } })
  })

  it('names what a request refers to that the log does not have', async () => {
    const f = await loop([[{ toolCalls: [{ name: 'Write', args: { file_path: 'a.txt', content: 'A' } }] }]])
    const turnId = await turn(f, 'w')
    await expect(revertTurn(f.log, 'nope', undefined)).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'turnId' })
    await expect(revertTurn(f.log, turnId, '/elsewhere/x')).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'path' })
  })
})
