import { describe, expect, it } from 'vitest'
import { readWebConfig } from './config'

describe('web config', () => {
  it('defaults to 127.0.0.1:5180', () => {
    expect(readWebConfig({})).toEqual({ port: 5180, host: '127.0.0.1', extraOrigins: [] })
  })

  it('reads PORT (0 allowed), SEAM_WEB_HOST and SEAM_WEB_ORIGINS', () => {
    expect(readWebConfig({ PORT: '0', SEAM_WEB_HOST: '0.0.0.0', SEAM_WEB_ORIGINS: 'http://box.lan:5180, https://seam.example' })).toEqual({
      port: 0,
      host: '0.0.0.0',
      extraOrigins: ['http://box.lan:5180', 'https://seam.example']
    })
  })

  it('names the variable that is wrong', () => {
    expect(() => readWebConfig({ PORT: 'eighty' })).toThrow(/^PORT: /)
    expect(() => readWebConfig({ PORT: '70000' })).toThrow(/^PORT: /)
    expect(() => readWebConfig({ SEAM_WEB_HOST: 'a b' })).toThrow(/^SEAM_WEB_HOST: /)
    expect(() => readWebConfig({ SEAM_WEB_ORIGINS: 'http://x/path' })).toThrow(/^SEAM_WEB_ORIGINS: /)
  })
})
