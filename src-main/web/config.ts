// Web mode's settings from the environment, validated so a bad value names its variable.
import { z } from 'zod'
import { DEFAULT_WEB_HOST, DEFAULT_WEB_PORT } from './server'

const EnvSchema = z.object({
  PORT: z
    .string()
    .regex(/^\d{1,5}$/, 'must be a port number (0 picks a free port)')
    .transform(Number)
    .pipe(z.number().int().min(0).max(65535))
    .optional(),
  SEAM_WEB_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:-]+$/, 'must be a host name or an IP address')
    .optional(),
  SEAM_WEB_ORIGINS: z.string().optional()
})

export interface WebConfig {
  port: number
  host: string
  extraOrigins: string[]
}

export function readWebConfig(env: NodeJS.ProcessEnv): WebConfig {
  const parsed = EnvSchema.safeParse({
    PORT: env.PORT || undefined,
    SEAM_WEB_HOST: env.SEAM_WEB_HOST || undefined,
    SEAM_WEB_ORIGINS: env.SEAM_WEB_ORIGINS || undefined
  })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new Error(`${String(issue.path[0])}: ${issue.message}`)
  }
  const extraOrigins = (parsed.data.SEAM_WEB_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
  for (const origin of extraOrigins) {
    let url: URL | undefined
    try {
      url = new URL(origin)
    } catch {
      url = undefined
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin.replace(/\/$/, '')) {
      throw new Error(`SEAM_WEB_ORIGINS: '${origin}' is not an origin like http://host:port`)
    }
  }
  return {
    port: parsed.data.PORT ?? DEFAULT_WEB_PORT,
    host: parsed.data.SEAM_WEB_HOST ?? DEFAULT_WEB_HOST,
    extraOrigins
  }
}
