import { create } from "zustand";
import { storedToken } from "../../lib/user-api";
import { getItemStates } from "./library-api";

/** The item-state call takes at most this many ids. */
const MAX_IDS_PER_CALL = 100;

interface ListFavoritesState {
  /** The member these marks belong to (null: a guest, nothing known). */
  userId: number | null;
  /** is_favorite per item id, for the ids asked so far. */
  marks: Record<number, boolean>;
  set(id: number, on: boolean): void;
}

/**
 * The signed-in member's favourites among the items lists show (spec section 2: favourite "in
 * lists"). Rows ask for their ids; the asks of one render are gathered into one item-state call
 * (pages stay the same HTML for everyone; the marks come after hydration).
 */
export const useListFavorites = create<ListFavoritesState>()((set) => ({
  userId: null,
  marks: {},
  set: (id, on) => set((s) => ({ marks: { ...s.marks, [id]: on } })),
}));

let wanted = new Set<number>();
let scheduled = false;

/** Asks for the marks of `id` for member `userId` (gathered with the other rows' asks). */
export function wantFavoriteMark(userId: number, id: number) {
  // No token: a logout is under way (the member is cleared once its page has changed).
  if (!storedToken()) return;
  const store = useListFavorites.getState();
  if (store.userId !== userId) useListFavorites.setState({ userId, marks: {} });
  else if (id in store.marks) return;
  wanted.add(id);
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    const ids = [...wanted];
    wanted = new Set();
    for (let i = 0; i < ids.length; i += MAX_IDS_PER_CALL) void load(userId, ids.slice(i, i + MAX_IDS_PER_CALL));
  });
}

async function load(userId: number, ids: number[]) {
  try {
    const res = await getItemStates(ids);
    if (res.code !== 1 || useListFavorites.getState().userId !== userId) return;
    const marks = { ...useListFavorites.getState().marks };
    for (const state of res.data) marks[state.id] = state.is_favorite;
    useListFavorites.setState({ marks });
  } catch {
    // Offline: the hearts stay empty; a click still works and says what the server says.
  }
}
