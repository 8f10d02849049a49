import { DueTimeHeap } from '../../../../src/plugins/queue/DueTimeHeap';

describe('DueTimeHeap', (): void => {
  it('pops due items earliest first, ties in insertion order', (): void => {
    const heap = new DueTimeHeap<string>();
    expect(heap.peekDue()).toBeUndefined();
    heap.push(30, 'c');
    heap.push(10, 'a1');
    heap.push(20, 'b');
    heap.push(10, 'a2');
    heap.push(40, 'd');
    expect(heap.peekDue()).toBe(10);
    expect(heap.popDue(5)).toEqual([]);
    expect(heap.popDue(20)).toEqual([ 'a1', 'a2', 'b' ]);
    expect(heap.size).toBe(2);
    expect(heap.popDue(100)).toEqual([ 'c', 'd' ]);
  });

  it('sorts many random items', (): void => {
    const heap = new DueTimeHeap<number>();
    const values = Array.from({ length: 1000 }, (): number => Math.floor(Math.random() * 10_000));
    for (const value of values) {
      heap.push(value, value);
    }
    expect(heap.popDue(Number.POSITIVE_INFINITY)).toEqual([ ...values ].sort((left, right): number => left - right));
    heap.push(1, 1);
    heap.clear();
    expect(heap.size).toBe(0);
  });
});
