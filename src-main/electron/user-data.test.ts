import { describe, expect, it } from 'vitest'
import { USER_DATA_ENV, userDataOverride } from './user-data'

describe('SEAM_ELECTRON_USER_DATA (own userData and single-instance lock for tests)', () => {
  it('is unset by default, so Electron keeps its own folder', () => {
    expect(userDataOverride({})).toBeUndefined()
    expect(userDataOverride({ [USER_DATA_ENV]: '  ' })).toBeUndefined()
  })
  it('names an absolute folder', () => {
    expect(userDataOverride({ [USER_DATA_ENV]: '/tmp/seam-e2e/./user-data/' })).toBe('/tmp/seam-e2e/user-data/')
  })
  it('refuses a relative path, naming the variable', () => {
    expect(() => userDataOverride({ [USER_DATA_ENV]: 'user-data' })).toThrow(/SEAM_ELECTRON_USER_DATA must be an absolute path \(got "user-data"\)/)
  })
})
