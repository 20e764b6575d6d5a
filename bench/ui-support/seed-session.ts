// Realistic sessions for the UI bench, written through the host's own SessionStore (validated,
// seq and ts assigned by SessionLog.append): each turn is a prompt, a Read, an Edit and a Bash
// call with their outputs, and a Markdown answer with a list, a code block and now and then a table.
import type { SessionEventInput } from '../../src-shared/host/agent'
import { SessionStore } from '../../src-main/session/store'

export interface SeededSession {
  id: string
  title: string
  /** Text of the last assistant message: when it is on screen, the session has rendered. */
  marker: string
}

const PER_TURN = 13

/** Writes a session of exactly `count` events (header, a few notices to round up, then full turns). */
export async function seedSession(store: SessionStore, title: string, workspace: string, count: number): Promise<SeededSession> {
  const log = store.create({ workspace, title, model: { provider: 'openai-compatible', model: 'bench-model' } })
  const marker = `END-OF-SESSION-${log.id}`
  const notices = (count - 1) % PER_TURN
  const turns = (count - 1 - notices) / PER_TURN
  if (turns < 1) throw new Error(`a session of ${count} events has no full turn (${PER_TURN} events each) to end with its marker`)
  for (let i = 0; i < notices; i++) log.append({ type: 'notice', level: 'info', text: `Seeded notice ${i + 1}.`, source: 'bench' })
  for (let t = 0; t < turns; t++) {
    for (const input of turnEvents(t, workspace, t === turns - 1 ? marker : undefined)) log.append(input)
    if (t % 50 === 49) await log.flush()
  }
  await log.flush()
  const written = log.events.length
  await log.close()
  if (written !== count) throw new Error(`seeded ${written} events, wanted ${count}`)
  return { id: log.id, title, marker }
}

function turnEvents(t: number, workspace: string, lastText: string | undefined): SessionEventInput[] {
  const turnId = `turn-${t + 1}`
  const module = `src/module-${t % 50}`
  const file = `${workspace}/${module}/index.ts`
  const verdict = { outcome: 'allowed', stage: 'approval', approval: 'allowed-session' } as const
  const source = Array.from({ length: 40 }, (_, k) => `${String(k + 1).padStart(6)}\t${k % 7 === 0 ? `export function step${k}(input: number): number {` : `  return input * ${k} + ${t} // line ${k}`}`).join('\n')
  const read = { file_path: file }
  const edit = { file_path: file, old_string: `  return input * 3 + ${t} // line 3`, new_string: `  return input * 3 + ${t + 1} // line 3, fixed` }
  const bash = { command: `npm test -- ${module}`, description: 'Run the module tests' }
  const testOutput = [`> seam@0.1.0 test`, `> vitest run ${module}`, '', ...Array.from({ length: 12 }, (_, k) => ` ✓ ${module}/case-${k}.test.ts (${3 + k} tests) ${10 + k * 3}ms`), '', ' Test Files  12 passed (12)', '      Tests  90 passed (90)'].join('\n')
  const call = (callId: string, name: string, args: Record<string, unknown>): SessionEventInput[] => [
    { type: 'assistant/message', turnId, step: Number(callId.slice(-1)), text: callId.endsWith('0') ? `Let me read **${module}/index.ts** first.` : '', toolCalls: [{ id: callId, name, args }], stopReason: 'tool_use' },
    { type: 'tool/call', turnId, callId, token: `tok-${callId}`, name, args }
  ]
  const result = (callId: string, name: string, content: string): SessionEventInput => ({ type: 'tool/result', turnId, callId, token: `tok-${callId}`, name, content, isError: false, verdict, durationMs: 12 })
  const table = t % 5 === 0 ? `\n\n| case | before | after |\n| --- | --- | --- |\n| step3 | ${t} | ${t + 1} |\n| step10 | ok | ok |\n` : ''
  const answer = lastText ?? `Fixed the off-by-one in \`step3\` of ${module}:\n\n- the constant was \`${t}\`, now \`${t + 1}\`\n- the 90 tests pass\n\n\`\`\`ts\nexport function step3(input: number): number {\n  return input * 3 + ${t + 1}\n}\n\`\`\`${table}\n\nAnything else?`
  return [
    { type: 'turn/start', turnId },
    { type: 'user/message', turnId, content: `Question ${t + 1}: step3 in ${module} returns the wrong value. Please fix it and run the tests.`, source: 'user' },
    ...call(`call_${t}_0`, 'Read', read),
    result(`call_${t}_0`, 'Read', source),
    ...call(`call_${t}_1`, 'Edit', edit),
    result(`call_${t}_1`, 'Edit', `The file ${file} has been updated.`),
    ...call(`call_${t}_2`, 'Bash', bash),
    result(`call_${t}_2`, 'Bash', testOutput),
    { type: 'assistant/message', turnId, step: 3, text: answer, toolCalls: [], stopReason: 'end_turn' },
    { type: 'turn/end', turnId, reason: 'completed', steps: 4 }
  ]
}
