export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** The goal as text, e.g. "<= 15x wc -l". */
  goal?: string;
  ok?: boolean;
}
