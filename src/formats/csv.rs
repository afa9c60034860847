//! CSV player lists (`name,rating[,id]`) to start an event.
