// The wrapping of Claude Code's channels reference ("Notification format"), checked on its own.
import { describe, expect, it } from 'vitest'
import { attributes, channelTag, parseChannelParams } from './message'

describe('channel messages', () => {
  it('wraps content in a <channel> tag whose source is the server and whose attributes are the meta entries, in order', () => {
    expect(channelTag('your-channel', 'build failed on main: https://ci.example.com/run/1234', { severity: 'high', run_id: '1234' })).toBe(
      '<channel source="your-channel" severity="high" run_id="1234">\nbuild failed on main: https://ci.example.com/run/1234\n</channel>'
    )
    expect(channelTag('webhook', '', {})).toBe('<channel source="webhook">\n\n</channel>')
  })

  it('keeps identifier keys only (letters, digits, underscores) and never a meta "source"', () => {
    expect(attributes({ chat_id: '1', 'message-id': '2', 'a b': '3', Ünï: '4', source: 'forged', X9_: '5' })).toEqual({ chat_id: '1', X9_: '5' })
    expect(attributes(undefined)).toEqual({})
  })

  it('writes the characters that would end the attribute or open markup as entities; content stays as sent', () => {
    expect(channelTag('chat', 'a <b> & "c"', { user: 'x" onclick="y', note: '<&>' })).toBe('<channel source="chat" user="x&quot; onclick=&quot;y" note="&lt;&amp;&gt;">\na <b> & "c"\n</channel>')
  })

  it('checks params with the field named', () => {
    expect(parseChannelParams({ content: 'hi', meta: { chat_id: '42' } })).toEqual({ ok: true, message: { content: 'hi', meta: { chat_id: '42' } } })
    expect(parseChannelParams({ content: 'hi' })).toEqual({ ok: true, message: { content: 'hi' } })
    expect(parseChannelParams({ content: 5 })).toMatchObject({ ok: false, problem: expect.stringMatching(/^content: .*expected string/) })
    expect(parseChannelParams({ content: 'x', meta: { run_id: 1234 } })).toMatchObject({ ok: false, problem: expect.stringMatching(/^meta\.run_id: /) })
    expect(parseChannelParams(undefined)).toMatchObject({ ok: false, problem: expect.stringMatching(/^params: /) })
  })
})
