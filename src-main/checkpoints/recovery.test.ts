// Recovery of a restore cut short, file by file: the log is left as a crash between the journal
// and the commit leaves it (the journal synced, one file restored, one temp file next to another,
// one file edited by hand after the crash), then the session is reopened from disk.
import { existsSync, readdirSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createLoopFixture, type LoopFixture } from '../agent/loop-fixture'
import { CheckpointStore } from '../session/checkpoint-store'
import { writeFileAtomic } from '../tools/builtin/atomic-write'
import { createWriteTool } from '../tools/builtin/write'
import { turnFileChanges } from './changes'
import { tempTagOf, unfinishedJournals } from './journal'
import { checkpointsPlugin } from './plugin'
import { finishInterruptedRestores } from './recovery'

let fixture: LoopFixture | undefined
afterEach(async () => {
  await fixture?.cleanup()
  fixture = undefined
})

it('finishes the files still as the restore found them, counts the ones done, leaves one edited since, removes the temp file, and commits once', async () => {
  const names = ['a.txt', 'b.txt', 'c.txt']
  fixture = await createLoopFixture({
    script: [{ toolCalls: names.map((name) => ({ name: 'Write', args: { file_path: name, content: `${name} new\n` } })) }, { text: 'wrote' }],
    setup(kernel, tools) {
      tools.register(createWriteTool())
      kernel.plugin(checkpointsPlugin)
    }
  })
  const f = fixture
  for (const name of names) await writeFile(join(f.dir, name), `${name} old\n`)
  f.agent.send('write three files')
  await f.agent.whenIdle()
  const turnId = f.ofType('turn/start')[0].turnId
  const store = CheckpointStore.forLog(f.log.path)
  const files = []
  for (const change of turnFileChanges(f.log.events, turnId)) files.push({ path: change.path, to: change.before, replaced: await store.capture(change.path), conflict: false })
  const journal = f.log.append({ type: 'restore/journal', operation: { type: 'revert', scope: 'turn', turnId }, tag: '0123456789abcdef', files })
  await f.log.flush({ durable: true })
  // The crash: a.txt restored, b.txt's temp written and not renamed, c.txt then edited by hand.
  await store.restore(files[0].path, files[0].to, { tempTag: tempTagOf('0123456789abcdef') })
  const temp = join(f.dir, `.b.txt.${tempTagOf('0123456789abcdef')}.tmp`)
  await writeFile(temp, 'b.txt old\n')
  await writeFileAtomic(join(f.dir, 'c.txt'), 'c.txt edited by hand\n')
  await f.agent.close('closed')
  await f.log.close()

  const reopened = await f.store.open(f.log.id)
  try {
    expect(unfinishedJournals(reopened.events).map((e) => e.seq)).toEqual([journal.seq])
    const [recovered] = await finishInterruptedRestores(reopened)
    expect(recovered.alreadyRestored).toEqual([join(f.dir, 'a.txt')])
    expect(recovered.restoredNow).toEqual([join(f.dir, 'b.txt')])
    expect(recovered.left).toEqual([{ path: join(f.dir, 'c.txt'), reason: expect.stringContaining('changed after the interrupted restore began') }])
    expect(await readFile(join(f.dir, 'a.txt'), 'utf8')).toBe('a.txt old\n')
    expect(await readFile(join(f.dir, 'b.txt'), 'utf8')).toBe('b.txt old\n')
    expect(await readFile(join(f.dir, 'c.txt'), 'utf8')).toBe('c.txt edited by hand\n')
    expect(existsSync(temp)).toBe(false)
    expect(readdirSync(f.dir).filter((name) => name.endsWith('.tmp'))).toEqual([])
    expect(recovered.commit).toMatchObject({ type: 'revert', journalSeq: journal.seq, scope: 'turn', turnId })
    expect(recovered.commit.files.map((file) => file.path)).toEqual([join(f.dir, 'a.txt'), join(f.dir, 'b.txt')])
    expect(reopened.events.at(-1)).toMatchObject({ type: 'notice', level: 'error', source: 'checkpoints', text: expect.stringContaining(`Not put back: ${join(f.dir, 'c.txt')}`) })
    expect(unfinishedJournals(reopened.events)).toEqual([])
    expect(await finishInterruptedRestores(reopened)).toEqual([])
  } finally {
    await reopened.close()
  }
})
