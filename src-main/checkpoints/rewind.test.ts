// Rewinding a real agent session to an earlier prompt: files restored, the prompt handed back,
// and the model history rebuilt without the rewound turns, the same live and from disk.
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import type { SessionEventOf } from '../../src-shared/session/events'
import { buildModelRequest, buildModelRequestFor } from '../agent/step'
import { createLoopFixture, type LoopFixture } from '../agent/loop-fixture'
import { createEditTool } from '../tools/builtin/edit'
import { createWriteTool } from '../tools/builtin/write'
import { checkpointsPlugin } from './plugin'
import { rewindTo } from './service'

let fixture: LoopFixture | undefined
afterEach(async () => {
  await fixture?.cleanup()
  fixture = undefined
})

async function threeTurns(): Promise<LoopFixture> {
  fixture = await createLoopFixture({
    script: [
      { toolCalls: [{ name: 'Write', args: { file_path: 'a.txt', content: 'a1\n' } }] },
      { text: 'wrote a' },
      { toolCalls: [{ name: 'Edit', args: { file_path: 'a.txt', old_string: 'a1', new_string: 'a2' } }, { name: 'Write', args: { file_path: 'b.txt', content: 'b1\n' } }] },
      { text: 'changed a, wrote b' },
      { toolCalls: [{ name: 'Write', args: { file_path: 'b.txt', content: 'b2\n' } }] },
      { text: 'rewrote b' },
      { text: 'after the rewind' }
    ],
    setup(kernel, tools) {
      tools.register(createWriteTool())
      tools.register(createEditTool())
      kernel.plugin(checkpointsPlugin)
    }
  })
  for (const prompt of ['first', 'second', 'third']) {
    fixture.agent.send(prompt)
    await fixture.agent.whenIdle()
  }
  return fixture
}

const messageOf = (f: LoopFixture, content: string) => f.ofType('user/message').find((m) => m.content === content)!

it('rewinding to the second prompt restores the files as they were before it and hands the prompt back', async () => {
  const f = await threeTurns()
  expect(await readFile(join(f.dir, 'a.txt'), 'utf8')).toBe('a2\n')
  expect(await readFile(join(f.dir, 'b.txt'), 'utf8')).toBe('b2\n')
  const second = messageOf(f, 'second')
  const preview = await rewindTo(f.log, second.seq, { preview: true })
  expect(preview.status).toBe('preview')
  expect(preview.prompt).toBe('second')
  expect(preview.files.map((file) => [file.path.slice(f.dir.length + 1), file.to, file.conflict])).toEqual([
    ['a.txt', { kind: 'text', text: 'a1\n' }, false],
    ['b.txt', { kind: 'absent' }, false]
  ])
  const outcome = await rewindTo(f.log, second.seq)
  expect(outcome).toMatchObject({ status: 'done', prompt: 'second' })
  expect(await readFile(join(f.dir, 'a.txt'), 'utf8')).toBe('a1\n')
  expect(existsSync(join(f.dir, 'b.txt'))).toBe(false)
  const rewind = f.log.events.at(-1) as SessionEventOf<'rewind'>
  expect(rewind).toMatchObject({ type: 'rewind', toSeq: second.seq, turnId: second.turnId, prompt: 'second' })
  // A rewound message cannot be rewound to again.
  await expect(rewindTo(f.log, second.seq)).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'messageSeq' })
})

it('the model history after a rewind is the history before the rewound prompt, and a reload rebuilds the same request', async () => {
  const f = await threeTurns()
  const second = messageOf(f, 'second')
  const beforeSecond = buildModelRequest(f.log.events.filter((e) => e.seq < second.seq))
  await rewindTo(f.log, second.seq)
  const afterRewind = buildModelRequestFor(f.log)
  expect(afterRewind.messages).toStrictEqual(beforeSecond.messages)
  expect(afterRewind.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])

  // The next prompt continues from there: the model gets turn 1, then the new prompt.
  f.agent.send('instead, do this')
  await f.agent.whenIdle()
  const request = f.model.lastRequest!
  expect(request.messages.map((m) => (m.role === 'user' ? m.content : m.role))).toEqual(['first', 'assistant', 'tool', 'assistant', 'instead, do this'])
  const live = buildModelRequestFor(f.log)
  await f.agent.close('closed')
  await f.log.close()

  const reopened = await f.store.open(f.log.id)
  expect(buildModelRequest(reopened.events)).toStrictEqual(live)
  await reopened.close()
})

it('asks first when a file changed since the log last saw it (edited by hand), and restores it when forced', async () => {
  const f = await threeTurns()
  await writeFile(join(f.dir, 'b.txt'), 'hand edit\n')
  const first = messageOf(f, 'first')
  const asked = await rewindTo(f.log, first.seq)
  expect(asked.status).toBe('conflict')
  const b = asked.files.find((file) => file.path.endsWith('b.txt'))!
  expect(b).toMatchObject({ conflict: true, expected: { kind: 'text', text: 'b2\n' }, current: { kind: 'text', text: 'hand edit\n' }, to: { kind: 'absent' } })
  expect(f.log.events.at(-1)?.type).not.toBe('rewind')
  const done = await rewindTo(f.log, first.seq, { force: true })
  expect(done.status).toBe('done')
  expect(existsSync(join(f.dir, 'a.txt'))).toBe(false)
  expect(existsSync(join(f.dir, 'b.txt'))).toBe(false)
  expect(buildModelRequestFor(f.log).messages).toStrictEqual([])
})
