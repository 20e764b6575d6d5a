// Types for child-cpu.mjs.
export declare function reapedChildrenCpuSeconds(stat: string, ticks: number): number | undefined
