import type { AnyStateMachine } from 'xstate';

interface NodeLike {
  key: string;
  id: string;
  type: string;
  initial?: { target: readonly NodeLike[] } | undefined;
  states: Record<string, NodeLike>;
  transitions: Map<string, readonly TransitionLike[]>;
  always?: readonly TransitionLike[] | undefined;
}

interface TransitionLike {
  eventType: string;
  target?: readonly NodeLike[] | undefined;
  guard?: unknown;
}

function guardName(guard: unknown): string {
  if (!guard) return '';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    // Higher-order guards (not/and/or) carry their operands in `guards`.
    const operands = (guard as { guards?: unknown[] }).guards;
    if (operands) return `${guard.name} ${operands.map(guardName).join(' ')}`;
    return guard.name || 'guard';
  }
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String(guard.type);
  return 'guard';
}

function eventLabel(t: TransitionLike): string {
  const event =
    t.eventType === ''
      ? 'always'
      : t.eventType.replace(/^xstate\.(done|error)\.actor\..*$/, 'actor.$1');
  const guard = guardName(t.guard);
  return guard ? `${event} [${guard}]` : event;
}

const name = (node: NodeLike) => node.id.replace(/[^A-Za-z0-9_]/g, '_');

/**
 * A Mermaid stateDiagram-v2 made from a machine's definition, so the picture in docs/
 * can never drift from the code. Targetless transitions are drawn as self-loops.
 */
export function toMermaid(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2'];
  const root = machine.root as unknown as NodeLike;
  const rootTargetless = [...root.transitions.values()].flat().filter((t) => !t.target?.length);

  const walk = (node: NodeLike, indent: string, inherited: TransitionLike[]) => {
    const children = Object.values(node.states);
    const initial = node.initial?.target[0];
    if (initial) lines.push(`${indent}[*] --> ${name(initial)}`);
    for (const child of children) {
      if (Object.keys(child.states).length > 0) {
        lines.push(`${indent}state ${name(child)} {`);
        walk(child, indent + '  ', inherited);
        lines.push(`${indent}}`);
      } else {
        lines.push(`${indent}${name(child)} : ${child.key}`);
      }
      if (child.type === 'final') lines.push(`${indent}${name(child)} --> [*]`);
      const own = [...child.transitions.values()].flat();
      for (const t of [...own, ...(child.always ?? [])]) {
        const targets = t.target?.length ? t.target : [child];
        for (const target of targets)
          lines.push(`${indent}${name(child)} --> ${name(target)} : ${eventLabel(t)}`);
      }
      if (child.type === 'atomic' && inherited.length > 0) {
        lines.push(
          `${indent}${name(child)} --> ${name(child)} : ${inherited.map(eventLabel).join(', ')}`,
        );
      }
    }
  };
  walk(root, '  ', rootTargetless);

  // Root transitions with a target (e.g. coupon.apply → validating) leave every state.
  const rootTargeted = [...root.transitions.values()].flat().filter((t) => t.target?.length);
  for (const t of rootTargeted) {
    for (const target of t.target!)
      lines.push(`  note right of ${name(target)} : from any state on ${eventLabel(t)}`);
  }
  return lines.join('\n') + '\n';
}

/** The Markdown file written to docs/machines/<id>.md. */
export function diagramDocument(machine: AnyStateMachine, title: string): string {
  return [
    `# ${title}`,
    '',
    `Generated from \`machines/\` by \`npm run machines:diagram\`; do not edit by hand.`,
    '',
    '```mermaid',
    toMermaid(machine).trimEnd(),
    '```',
    '',
  ].join('\n');
}
