import type { CatalogueItem, HitPlace } from "@contracts/catalogue-item";
import { playerControls } from "../player/media-engine";
import { fromCatalogueItem, sameItem } from "../player/player-item";
import { currentItem, playerStore, usePlayer } from "../player/player-store";
import styles from "./home.module.css";

/** The hit as played from one of its places: that place's id, address and site, the rest the hit's. */
export function placeItem(item: CatalogueItem, place: HitPlace): CatalogueItem {
  return { ...item, id: place.id, source: place.source, palyurl: place.palyurl, mimeType: place.mimeType, url: place.url, website: place.website, websitelogo: place.websitelogo, places: undefined };
}

const placeName = (place: HitPlace) => (place.source === "local" ? "本站" : place.website || place.source);

/** The places other than the one the row itself plays, fastest first (ADR 0052). */
export function otherPlaces(item: CatalogueItem): HitPlace[] {
  return (item.places ?? []).filter((p) => !(p.source === item.source && String(p.id) === String(item.id)));
}

/**
 * 也在：DJUU · 清风DJ — the other sites a hit was found on, each a small button that plays the
 * hit from that site in the player (the row's own play button plays its first place).
 */
export function HitPlaces({ item }: { item: CatalogueItem }) {
  const others = otherPlaces(item);
  if (others.length === 0) return null;
  return (
    <span className={styles.places} data-places>
      <span className={styles.placesLabel}>也在：</span>
      {others.map((place) => (
        <PlaceChip key={`${place.source}:${String(place.id)}`} item={item} place={place} />
      ))}
    </span>
  );
}

function PlaceChip({ item, place }: { item: CatalogueItem; place: HitPlace }) {
  const entry = fromCatalogueItem(placeItem(item, place));
  const playingThis = usePlayer((s) => s.playing && !!currentItem(s) && sameItem(currentItem(s)!, entry));
  const name = placeName(place);
  const onClick = () => {
    if (playingThis) return playerControls.pause();
    const current = currentItem(playerStore.getState());
    if (current && sameItem(current, entry)) return void playerControls.play();
    playerStore.getState().playItem(entry);
  };
  return (
    <button
      type="button"
      className={playingThis ? `${styles.place} ${styles.placeOn}` : styles.place}
      onClick={onClick}
      aria-pressed={playingThis}
      aria-label={playingThis ? `暂停 ${item.name}（${name}）` : `在${name}播放 ${item.name}`}
      title={playingThis ? `暂停（${name}）` : `在${name}播放`}
      data-place={place.source}
    >
      {name}
    </button>
  );
}
