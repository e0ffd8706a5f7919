// Just enough of a document for lit-html to load under node (it asks for one when its
// module is evaluated): the views are then functions to call, their templates values to
// read (see view.js). Imported first by each test that imports a view.
globalThis.document ??= { createTreeWalker: () => ({}), createComment: () => ({}) };
