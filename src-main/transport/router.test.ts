import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Methods, type MethodName, type WireReply } from '../../src-shared/contract/ipc'
import { createRouter, type Handlers } from './router'

const caller = { transport: 'web' as const }
const methodNames = Object.keys(Methods) as MethodName[]

function handlersWith(overrides: Partial<Handlers>, calls: string[] = []): Handlers {
  const all: Record<string, (input: unknown) => Promise<unknown>> = {}
  for (const name of methodNames) {
    all[name] = async () => {
      calls.push(name)
      throw new Error(`${name} not implemented in this test`)
    }
  }
  return { ...(all as unknown as Handlers), ...overrides }
}

function expectError(reply: WireReply): { code: string; message: string; field?: string } {
  expect(reply.ok).toBe(false)
  if (reply.ok) throw new Error('unreachable')
  return reply.error
}

/** A value the field's schema rejects, or undefined when it accepts anything (z.unknown). */
function wrongValueFor(schema: z.ZodType): unknown {
  const candidates: unknown[] = [{ __wrong: true }, 12345, true, 'x'.repeat(2000)]
  return candidates.find((value) => !schema.safeParse(value).success)
}

describe('router: malformed input for every contract method', () => {
  const calls: string[] = []
  const router = createRouter(handlersWith({}, calls), { log: () => {} })

  it.each(methodNames)('%s rejects a non-object input and names the root', async (method) => {
    const error = expectError(await router.invoke(method, 42, caller))
    expect(error.code).toBe('INVALID_INPUT')
    expect(error.field).toBe('(root)')
    expect(error.message).toContain(method)
  })

  it.each(methodNames)('%s rejects {__bad: 1} naming the unknown key or a missing field', async (method) => {
    const error = expectError(await router.invoke(method, { __bad: 1 }, caller))
    expect(error.code).toBe('INVALID_INPUT')
    const input = Methods[method].input
    const shape = input instanceof z.ZodObject ? (input.shape as Record<string, z.ZodType>) : {}
    const required = Object.keys(shape).filter((key) => !shape[key]!.safeParse(undefined).success)
    expect([...required, '__bad']).toContain(error.field)
    expect(error.message).toContain(String(error.field))
  })

  it.each(methodNames)('%s rejects a wrong type in each of its fields, naming that field', async (method) => {
    const input = Methods[method].input
    const shape = input instanceof z.ZodObject ? (input.shape as Record<string, z.ZodType>) : {}
    for (const [key, fieldSchema] of Object.entries(shape)) {
      const wrong = wrongValueFor(fieldSchema)
      if (wrong === undefined) continue // z.unknown(): any value is acceptable
      const error = expectError(await router.invoke(method, { [key]: wrong }, caller))
      expect(error.code).toBe('INVALID_INPUT')
      expect(error.message).toContain(`${key}:`)
    }
  })

  it('never reached a handler with malformed input', () => {
    expect(calls).toEqual([])
  })
})

describe('router: dispatch', () => {
  it('answers an unknown method, including prototype keys', async () => {
    const router = createRouter(handlersWith({}), { log: () => {} })
    for (const method of ['nope/never', '__proto__', 'constructor', 'toString']) {
      expect(expectError(await router.invoke(method, {}, caller)).code).toBe('UNKNOWN_METHOD')
    }
  })

  it('passes the parsed input and the caller to the handler and returns its validated output', async () => {
    const seen: unknown[] = []
    const router = createRouter(
      handlersWith({
        'workspace/set': async (input, who) => {
          seen.push(input, who)
          return { path: input.path, extra: 'stripped' } as { path: string }
        }
      })
    )
    const reply = await router.invoke('workspace/set', { path: '/tmp/x', ignored: true }, { transport: 'electron' })
    expect(reply).toEqual({ ok: true, output: { path: '/tmp/x' } })
    expect(seen).toEqual([{ path: '/tmp/x' }, { transport: 'electron' }])
  })

  it('turns a handler throw into HANDLER_ERROR, or the error code when it carries one', async () => {
    const logged: string[] = []
    const router = createRouter(
      handlersWith({
        'app/status': async () => {
          throw new TypeError('boom')
        },
        'workspace/choose': async () => {
          throw Object.assign(new Error('no picker'), { code: 'UNSUPPORTED' })
        },
        'provider/get': () => {
          throw 'plain string' // a synchronous throw, not even an Error
        }
      }),
      { log: (message) => logged.push(message) }
    )
    expect(expectError(await router.invoke('app/status', {}, caller))).toEqual({ code: 'HANDLER_ERROR', message: 'boom' })
    expect(expectError(await router.invoke('workspace/choose', {}, caller))).toEqual({ code: 'UNSUPPORTED', message: 'no picker' })
    expect(expectError(await router.invoke('provider/get', {}, caller))).toEqual({ code: 'HANDLER_ERROR', message: 'plain string' })
    expect(logged.some((line) => line.includes("'app/status'"))).toBe(true)
  })

  it('reports an output that breaks the contract as INVALID_OUTPUT naming the field', async () => {
    const logged: string[] = []
    const router = createRouter(
      handlersWith({ 'sessions/create': async () => ({ id: 7 }) as unknown as { id: string } }),
      { log: (message) => logged.push(message) }
    )
    const error = expectError(await router.invoke('sessions/create', {}, caller))
    expect(error.code).toBe('INVALID_OUTPUT')
    expect(error.field).toBe('id')
    expect(logged.join('\n')).toContain('sessions/create output')
  })
})
