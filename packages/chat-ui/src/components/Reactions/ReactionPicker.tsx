import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { commonEmoji, loadEmojiList, searchEmoji, type EmojiChoice } from './commonEmoji';

export interface ReactionPickerProps {
  /** Called with the chosen emoji; the picker closes itself through onClose afterwards. */
  onPick: (emoji: string) => void;
  /** Escape, or a pick. */
  onClose: () => void;
  /** Where the searchable list comes from; default Unicode's list, loaded on first search. */
  loadList?: (() => Promise<readonly EmojiChoice[]>) | undefined;
}

/** Columns of the grid: Up and Down move by a row. */
export const pickerColumns = 8;

/**
 * "Add reaction": a grid of common emoji and a search over Unicode's whole list. The search box
 * takes the focus; ArrowDown (or Tab) enters the grid, the arrow keys move in it, Enter picks,
 * Escape closes. Enter in the box picks the first match.
 */
export function ReactionPicker({ onPick, onClose, loadList = loadEmojiList }: ReactionPickerProps) {
  const searchId = useId();
  const [query, setQuery] = useState('');
  const [list, setList] = useState<readonly EmojiChoice[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const searching = query.trim() !== '';
  const choices = searching ? (list === null ? [] : searchEmoji(list, query)) : [...commonEmoji];

  useEffect(() => inputRef.current?.focus(), []);
  useEffect(() => {
    if (!searching || list !== null || failed) return;
    let live = true;
    loadList().then(
      (loaded) => live && setList(loaded),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [searching, list, failed, loadList]);

  const pick = (emoji: string) => {
    onPick(emoji);
    onClose();
  };
  const focusChoice = (index: number) => {
    const next = Math.max(0, Math.min(choices.length - 1, index));
    setActive(next);
    (gridRef.current?.children[next] as HTMLElement | undefined)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !event.nativeEvent.isComposing) {
      event.stopPropagation();
      onClose();
    }
  };
  const onSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && choices.length > 0) {
      event.preventDefault();
      focusChoice(0);
    } else if (event.key === 'Enter' && !event.nativeEvent.isComposing && choices[0] !== undefined) {
      event.preventDefault();
      pick(choices[0].emoji);
    }
  };
  const onGridKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: pickerColumns, ArrowUp: -pickerColumns, Home: -choices.length, End: choices.length };
    const move = moves[event.key];
    if (move === undefined) return;
    event.preventDefault();
    if (event.key === 'ArrowUp' && active < pickerColumns) return inputRef.current?.focus();
    focusChoice(active + move);
  };

  return (
    <div className="cf-reaction-picker" role="dialog" aria-label="Add reaction" onKeyDown={onKeyDown}>
      <label className="cf-reaction-picker__label" htmlFor={searchId}>
        Search emoji
      </label>
      <input
        ref={inputRef}
        id={searchId}
        className="cf-input cf-reaction-picker__search"
        type="search"
        autoComplete="off"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={onSearchKeyDown}
      />
      {searching && list === null && !failed ? <p role="status">Loading emoji...</p> : null}
      {failed ? <p role="alert">The emoji list could not be loaded.</p> : null}
      {searching && list !== null && choices.length === 0 ? <p role="status">No emoji found.</p> : null}
      <div ref={gridRef} className="cf-reaction-picker__grid" role="group" aria-label={searching ? 'Matching emoji' : 'Common emoji'} onKeyDown={onGridKeyDown}>
        {choices.map((choice, index) => (
          <button
            key={choice.emoji}
            type="button"
            className="cf-reaction-picker__choice"
            aria-label={choice.name}
            title={choice.name}
            tabIndex={index === Math.min(active, choices.length - 1) ? 0 : -1}
            onFocus={() => setActive(index)}
            onClick={() => pick(choice.emoji)}
          >
            {choice.emoji}
          </button>
        ))}
      </div>
    </div>
  );
}
