/** The page imports its style sheet for the bundler, which writes it out as app.css. */
declare module '*.css';
