// The URL's hash as a route (deep links, issue 31): what each hash names and the hash each place gets.
import { describe, expect, it } from 'vitest'
import { parseRoute, routeHash } from './router'

describe('deep-link routes', () => {
  it('reads each page, a settings section and a session from the hash', () => {
    expect(parseRoute('')).toBeNull()
    expect(parseRoute('#/')).toBeNull()
    expect(parseRoute('#/chat')).toEqual({ page: 'chat', sessionId: null })
    expect(parseRoute('#/session/abc-123')).toEqual({ page: 'chat', sessionId: 'abc-123' })
    expect(parseRoute('#/board')).toEqual({ page: 'board' })
    expect(parseRoute('#/plugins')).toEqual({ page: 'plugins' })
    expect(parseRoute('#/settings')).toEqual({ page: 'settings', section: null })
    expect(parseRoute('#/settings/mcp')).toEqual({ page: 'settings', section: 'mcp' })
    expect(parseRoute('#/settings/plugin%3Aweather%2F1')).toEqual({ page: 'settings', section: 'plugin:weather/1' })
    expect(parseRoute('#settings/skills')).toEqual({ page: 'settings', section: 'skills' })
  })

  it('names what it cannot read as unknown instead of guessing', () => {
    expect(parseRoute('#/nowhere')).toEqual({ page: 'unknown', path: 'nowhere' })
    expect(parseRoute('#/session')).toEqual({ page: 'unknown', path: 'session' })
    expect(parseRoute('#/board/extra')).toEqual({ page: 'unknown', path: 'board/extra' })
    expect(parseRoute('#/session/%E0%A4%A')).toEqual({ page: 'unknown', path: 'session/%E0%A4%A' })
  })

  it('writes the hash of what shows, and reads it back to the same place', () => {
    const places = [
      { page: 'chat', settingsSection: 'provider', openId: null },
      { page: 'chat', settingsSection: 'provider', openId: 's 1/x' },
      { page: 'settings', settingsSection: 'plugin:weather/1', openId: 's1' },
      { page: 'board', settingsSection: 'provider', openId: 's1' },
      { page: 'plugins', settingsSection: 'provider', openId: null }
    ] as const
    expect(places.map(routeHash)).toEqual(['#/chat', '#/session/s%201%2Fx', '#/settings/plugin%3Aweather%2F1', '#/board', '#/plugins'])
    expect(parseRoute(routeHash(places[1]))).toEqual({ page: 'chat', sessionId: 's 1/x' })
    expect(parseRoute(routeHash(places[2]))).toEqual({ page: 'settings', section: 'plugin:weather/1' })
  })
})
