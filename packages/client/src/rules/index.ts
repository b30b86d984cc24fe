// `@confab/client/rules`: the constants and pure rules of docs/PRODUCT.md that the server enforces
// too, without the rest of the client (no SDK, no store, no renderer). One source for both sides.
export { constants } from '../constants';
export { fileExtension, isAllowedUpload, isAudioFile, isImageExtension, uploadExtensions, validateUpload } from '../validation/upload';
export { messages } from '../validation/messages';
export { stripUnsafeCharacters } from '../validation/unsafeCharacters';
export { extractMentions, inertMentions, isAgentUsername, mentionBeforeCursor, usernameFromName } from '../validation/mentions';
export { mimeFromExtension, mimeTypes, defaultMimeType, imageMimeType } from '../format/mime';
export { markdownToPlainText } from '../format/plainText';
export { notificationPreviewOf } from '../format/notificationPreview';
export { replyExcerpt, replyPreviewOf } from '../format/replyExcerpt';
export { countLabel } from '../format/count';
export { validateReactionEmoji, maxReactionLength } from '../validation/reactions';
export { systemLineText } from '../format/systemLine';
