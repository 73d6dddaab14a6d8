// Collects reader warnings and folds repeats into one readable line each.

export class WarningLog {
  private readonly invalidLines: number[] = [];
  private truncated: number | undefined;

  add(_kind: 'invalid-line', index: number): void {
    this.invalidLines.push(index);
  }

  truncatedLastLine(index: number): void {
    this.truncated = index;
    const at = this.invalidLines.lastIndexOf(index);
    if (at >= 0) this.invalidLines.splice(at, 1);
  }

  render(): string[] {
    const out: string[] = [];
    const n = this.invalidLines.length;
    if (n > 0) {
      const shown = this.invalidLines.slice(0, 5).map((i) => i + 1).join(', ');
      out.push(`${n} line${n === 1 ? ' is' : 's are'} not valid JSON and ${n === 1 ? 'was' : 'were'} skipped (line${n === 1 ? '' : 's'} ${shown}${n > 5 ? ', …' : ''})`);
    }
    if (this.truncated !== undefined) {
      out.push(`the last line (${this.truncated + 1}) is incomplete — the agent may still be writing; it was ignored`);
    }
    return out;
  }
}
