import { describe, expect, it } from 'vitest'
import { isAppUrl, isSafeExternalUrl, isTrustedSender, type AppPage } from './security'

const appUrl = 'seam://app/index.html'
const appPage: AppPage = { kind: 'app' }
const devPage: AppPage = { kind: 'server', origin: 'http://localhost:5173/' }
const diskPage = 'file:///opt/seam/out/renderer/index.html'
const top = (url: string) => ({ url, parent: null })

describe('isTrustedSender: an origin check (issue 13: Electron)', () => {
  it('accepts the top-level app page (seam://app build and dev server)', () => {
    expect(isTrustedSender(top(appUrl), appPage)).toBe(true)
    expect(isTrustedSender(top(`${appUrl}#/sessions/x`), appPage)).toBe(true)
    expect(isTrustedSender(top('seam://app/sessions/x?y=1'), appPage)).toBe(true)
    expect(isTrustedSender(top('http://localhost:5173/some/route?x=1'), devPage)).toBe(true)
  })

  it('refuses subframes even when they show the app URL', () => {
    expect(isTrustedSender({ url: appUrl, parent: { url: appUrl } }, appPage)).toBe(false)
    expect(isTrustedSender({ url: 'http://localhost:5173/', parent: {} }, devPage)).toBe(false)
  })

  it('never trusts a file:// page, not even the built renderer opened from disk', () => {
    expect(isTrustedSender(top(diskPage), appPage)).toBe(false)
    expect(isTrustedSender(top('file:///tmp/evil/index.html'), appPage)).toBe(false)
    expect(isAppUrl(diskPage, appPage)).toBe(false)
    expect(isAppUrl(diskPage, { kind: 'server', origin: diskPage })).toBe(false)
  })

  it('refuses missing frames, other pages and look-alikes of the app origin', () => {
    expect(isTrustedSender(null, appPage)).toBe(false)
    expect(isTrustedSender(undefined, appPage)).toBe(false)
    for (const url of ['seam://app.evil/index.html', 'seam://user@app/index.html', 'seam://app:1/index.html', 'seam-plugin://bundles/x/client.js', 'https://example.com/', 'about:blank', 'not a url']) {
      expect(isTrustedSender(top(url), appPage), url).toBe(false)
    }
  })

  it('refuses look-alike origins that a prefix test would let through', () => {
    expect(isTrustedSender(top('http://localhost:5173.attacker.com/'), devPage)).toBe(false)
    expect(isTrustedSender(top('http://localhost:51730/'), devPage)).toBe(false)
    expect(isTrustedSender(top('https://localhost:5173/'), devPage)).toBe(false)
    expect(isTrustedSender(top('http://user:pw@localhost:5173/'), devPage)).toBe(false)
    const example: AppPage = { kind: 'server', origin: 'https://example.com/' }
    expect(isTrustedSender(top('https://example.com.attacker.com/'), example)).toBe(false)
    expect(isTrustedSender(top('https://example.com@attacker.com/'), example)).toBe(false)
  })

  it('never matches when the dev-server origin is not http(s)', () => {
    expect(isAppUrl('data:text/html,x', { kind: 'server', origin: 'data:text/html,x' })).toBe(false)
    expect(isAppUrl(appUrl, { kind: 'server', origin: appUrl })).toBe(false)
  })
})

describe('isSafeExternalUrl', () => {
  it('accepts plain https links', () => {
    expect(isSafeExternalUrl('https://github.com/org/repo')).toBe(true)
  })
  it('refuses other schemes, credentials and junk', () => {
    for (const url of [
      'http://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'ms-msdt:/id',
      'https://user:pass@example.com/',
      'https://',
      'not a url',
      `https://example.com/${'a'.repeat(5000)}`
    ]) {
      expect(isSafeExternalUrl(url), url).toBe(false)
    }
  })
})
