// Which skill loads a compaction re-attaches (issue 29): the most recent invocation of each skill
// since the compaction before, whether the model loaded it (skill/loaded) or the user typed it
// (the user/message of its /name), the newest first within the budget, each cut to its share.
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '@seam/sdk'
import { loadedSinceCompaction, loadsToReattach } from './reattach'
import { skillHeader } from './render'

let seq = 0
const event = (e: Record<string, unknown>): SessionEvent => ({ seq: ++seq, ts: seq, ...e }) as SessionEvent
const typed = (name: string, args: string, body: string) =>
  event({ type: 'user/message', turnId: 't', content: `${skillHeader(name, args)}\nBase directory for this skill: /skills/${name}\n\n${body}`, originalContent: `/${name} ${args}`, command: { name, args, source: 'project' }, source: 'user' })
const loaded = (skill: string, args: string, text: string) => event({ type: 'skill/loaded', skill, file: `/skills/${skill}/SKILL.md`, args, trigger: 'model', text })
const compaction = () => event({ type: 'compaction', trigger: 'manual', summary: 's', fromSeq: 1, toSeq: seq + 1, replacedMessages: 1 })

describe('re-attaching skills after a compaction', () => {
  it('keeps the most recent invocation of each skill, typed or loaded by the model, oldest first, and none from before the previous compaction', () => {
    const events = [
      loaded('old', '', 'OLD'),
      compaction(),
      typed('deploy', 'staging', 'FIRST DEPLOY'),
      loaded('lint', '', 'LINT'),
      typed('deploy', 'prod', 'SECOND DEPLOY'),
      compaction()
    ]
    const loads = loadsToReattach(events, events.length - 1, { perSkillChars: 1_000, totalChars: 10_000 })
    expect(loads.map((l) => [l.skill, l.args, l.file])).toEqual([
      ['lint', '', '/skills/lint/SKILL.md'],
      ['deploy', 'prod', '/skills/deploy/SKILL.md']
    ])
    expect(loads[1].text).toContain('SECOND DEPLOY')
  })

  it('cuts each skill to its share and stops when the total budget is spent, the most recent first', () => {
    const events = [loaded('a', '', 'a'.repeat(500)), loaded('b', '', 'b'.repeat(500)), loaded('c', '', 'c'.repeat(500)), compaction()]
    const loads = loadsToReattach(events, events.length - 1, { perSkillChars: 300, totalChars: 700 })
    expect(loads.map((l) => l.skill)).toEqual(['a', 'b', 'c'])
    expect(loads.map((l) => l.text.split('\n')[0].length)).toEqual([100, 300, 300])
    expect(loads[2].text).toContain('The rest of this skill was cut when the conversation was compacted: read /skills/c/SKILL.md')
    const none = loadsToReattach(events, events.length - 1, { perSkillChars: 300, totalChars: 0 })
    expect(none).toEqual([])
  })

  it('an identical re-invocation is recognised until the next compaction', () => {
    const events = [typed('deploy', 'prod', 'x')]
    expect(loadedSinceCompaction(events, 'deploy', 'prod')).toBe(true)
    expect(loadedSinceCompaction(events, 'deploy', 'staging')).toBe(false)
    expect(loadedSinceCompaction([...events, compaction()], 'deploy', 'prod')).toBe(false)
  })
})
