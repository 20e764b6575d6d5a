// Types for child-cpu.mjs.
export declare function reapedChildrenCpuSeconds(stat: string, ticks: number): number | undefined
export declare function machineCpuSeconds(stat: string, ticks: number): { busy: number; all: number } | undefined
export declare function readMachineCpuSeconds(): { busy: number; all: number } | undefined
