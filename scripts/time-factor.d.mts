// Types for time-factor.mjs.
export declare const TIME_FACTOR_ENV: 'SEAM_TEST_TIME_FACTOR'
export declare const REFERENCE_MS: number
export declare function measureWorkload(): { wallMs: number; cpuMs: number }
export declare function factorOf(wallMs: number): number
export declare function timeFactor(env?: Record<string, string | undefined>): { factor: number; measured: { wallMs: number; cpuMs: number } | undefined }
export declare function scaledTimeout(ms: number, env?: Record<string, string | undefined>): number
export declare function loadFactor(load?: number, cores?: number): number
export declare function currentTimeFactor(env?: Record<string, string | undefined>, load?: number, cores?: number): number
