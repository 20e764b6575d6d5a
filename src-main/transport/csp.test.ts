import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY, contentSecurityPolicy, pluginClientUrl, webContentSecurityPolicy } from './csp'

function directive(policy: string, name: string): string | undefined {
  return policy
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `))
}

describe('content security policy', () => {
  it('is the policy the brief asks for', () => {
    expect(directive(CONTENT_SECURITY_POLICY, 'default-src')).toBe("default-src 'self'")
    expect(directive(CONTENT_SECURITY_POLICY, 'script-src')).toBe("script-src 'self' seam-plugin:")
    expect(directive(CONTENT_SECURITY_POLICY, 'style-src')).toBe("style-src 'self' 'unsafe-inline'")
    expect(directive(CONTENT_SECURITY_POLICY, 'connect-src')).toBe("connect-src 'self'")
    expect(directive(CONTENT_SECURITY_POLICY, 'img-src')).toBe("img-src 'self' data:")
    expect(directive(CONTENT_SECURITY_POLICY, 'object-src')).toBe("object-src 'none'")
    expect(directive(CONTENT_SECURITY_POLICY, 'frame-ancestors')).toBe("frame-ancestors 'none'")
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval')
  })

  it('web mode lets the page reach only the host\'s own WebSocket address, never any local port (issue 13: Web mode)', () => {
    const policy = webContentSecurityPolicy(['http://127.0.0.1:5181', 'http://localhost:5181'])
    expect(directive(policy, 'connect-src')).toBe("connect-src 'self' ws://127.0.0.1:5181 ws://localhost:5181")
    expect(policy).not.toContain(':*')
    expect(CONTENT_SECURITY_POLICY).not.toContain(':*')
  })

  it('relaxes script-src for the dev server only', () => {
    expect(directive(contentSecurityPolicy(), 'script-src')).not.toContain('unsafe-inline')
    expect(directive(contentSecurityPolicy({ dev: true }), 'script-src')).toContain("'unsafe-inline'")
  })

  it('matches the meta tag in src-renderer/index.html (which cannot carry frame-ancestors)', () => {
    const html = readFileSync(new URL('../../src-renderer/index.html', import.meta.url), 'utf8')
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)
    expect(meta?.[1]).toBe(META_CONTENT_SECURITY_POLICY)
    expect(META_CONTENT_SECURITY_POLICY).not.toContain('frame-ancestors')
  })

  it('builds plugin client URLs per transport, keeping scoped names one segment', () => {
    expect(pluginClientUrl('web', '@acme/panel', 'dist/client.js')).toBe('/plugins/%40acme%2Fpanel/dist/client.js')
    expect(pluginClientUrl('electron', 'demo', 'client.js')).toBe('seam-plugin://bundles/demo/client.js')
  })
})
