// `--channels ENTRY...` taken out of argv before parseArgs (Claude Code's flag, several entries space-separated).
import { describe, expect, it } from 'vitest'
import { takeChannelsFlag } from './channels-flag'

describe('--channels', () => {
  it('takes every following entry, =a,b and repeats; leaves the rest (the prompt) alone', () => {
    expect(takeChannelsFlag(['run', '--channels', 'plugin:chat@team', 'server:webhook', '--json', 'watch CI'])).toEqual({ argv: ['run', '--json', 'watch CI'], channels: ['plugin:chat@team', 'server:webhook'] })
    expect(takeChannelsFlag(['run', '--channels=plugin:a@m,server:b', '--channels', 'plugin:c', 'go'])).toEqual({ argv: ['run', 'go'], channels: ['plugin:a@m', 'server:b', 'plugin:c'] })
    expect(takeChannelsFlag(['run', 'go', '--', '--channels', 'plugin:x'])).toEqual({ argv: ['run', 'go', '--', '--channels', 'plugin:x'], channels: [] })
  })

  it("reads Claude Code's --dangerously-load-development-channels the same way (Seam has no allowlist to bypass)", () => {
    expect(takeChannelsFlag(['run', '--dangerously-load-development-channels', 'server:webhook', 'go'])).toEqual({ argv: ['run', 'go'], channels: ['server:webhook'] })
  })

  it('refuses a flag without an entry and an entry that is not one, saying what one looks like', () => {
    expect(() => takeChannelsFlag(['run', '--channels', 'watch CI'])).toThrow('--channels needs at least one entry: plugin:<name>@<marketplace> or server:<name>')
    expect(() => takeChannelsFlag(['run', '--channels=telegram', 'go'])).toThrow('--channels: "telegram" is not a channel: write plugin:<name>@<marketplace> or server:<name>')
    expect(() => takeChannelsFlag(['run', '--channels=', 'go'])).toThrow('--channels needs at least one entry')
  })
})
