// The app's one outbox, sent by the refiller's app whenever it is open: at start, when the
// network returns, when the page shows again (the phone woke up) and every 30 seconds.
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { expectReply } from '../../api/replies';
import { myDayDb } from './offline-db';
import { myDayKeys } from './my-day-data';
import { isPending, needsAttention, Outbox } from './outbox';
import type { OutboxItem } from './outbox-item';

/** Sent bookings stay listed this long. */
const KEEP_SENT_MS = 2 * 86_400_000;
const TICK_MS = 30_000;

let shared: Outbox | null = null;

/** The outbox of this page (one for the app: its timer outlives a screen). */
export function appOutbox(): Outbox {
  shared ??= new Outbox({
    db: myDayDb(),
    send: async (item) => expectReply(await api.post<{ message: string; data?: unknown }>(item.path, item.body)).data ?? null,
  });
  return shared;
}

interface OutboxState {
  outbox: Outbox;
  items: OutboxItem[];
  /** False until the items were read once. */
  ready: boolean;
}

const OutboxContext = createContext<OutboxState | null>(null);

export function OutboxProvider({ children }: { children: ReactNode }) {
  const outbox = appOutbox();
  const client = useQueryClient();
  const [state, setState] = useState<{ items: OutboxItem[]; ready: boolean }>({ items: [], ready: false });
  const sentCount = useRef(-1);

  useEffect(() => {
    let live = true;
    const read = () =>
      void outbox.list().then((items) => {
        if (!live) return;
        setState({ items, ready: true });
        // A booking the server took changes the route: read it again.
        const sent = items.filter((item) => item.status === 'sent').length;
        if (sentCount.current >= 0 && sent > sentCount.current) void client.invalidateQueries({ queryKey: myDayKeys.all });
        sentCount.current = sent;
      });
    const unsubscribe = outbox.subscribe(read);
    read();
    void outbox
      .recover()
      .then(() => outbox.prune(KEEP_SENT_MS))
      .then(() => outbox.flush());
    const kick = () => void outbox.flush();
    const shown = () => {
      if (document.visibilityState === 'visible') kick();
    };
    window.addEventListener('online', kick);
    document.addEventListener('visibilitychange', shown);
    const timer = setInterval(kick, TICK_MS);
    return () => {
      live = false;
      unsubscribe();
      window.removeEventListener('online', kick);
      document.removeEventListener('visibilitychange', shown);
      clearInterval(timer);
    };
  }, [outbox, client]);

  const value = useMemo(() => ({ outbox, ...state }), [outbox, state]);
  return <OutboxContext.Provider value={value}>{children}</OutboxContext.Provider>;
}

export function useOutbox(): OutboxState {
  const value = useContext(OutboxContext);
  if (!value) throw new Error('useOutbox must be used inside OutboxProvider');
  return value;
}

/** The bookings of one stop not yet taken by the server (newest last). */
export function useStopBookings(routeId: string, machineId: string) {
  const { items } = useOutbox();
  return items.filter((item) => item.routeId === routeId && item.machineId === machineId && item.status !== 'sent');
}

/** How many bookings wait and how many need the refiller. */
export function useOutboxSummary() {
  const { items } = useOutbox();
  return { pending: items.filter(isPending).length, refused: items.filter(needsAttention).length };
}
