/** Keeps one derived value until its key changes (catalog generation, Berlin day). */
export class Memo<T> {
  private key: string | null = null;
  private value: T | undefined;

  get(key: string, build: () => T): T {
    if (this.key !== key || this.value === undefined) {
      this.value = build();
      this.key = key;
    }
    return this.value;
  }
}
