// Package grepindex keeps a trigram index of a project's files so that a
// regular-expression search reads only the files that can match, as
// Google's codesearch and zoekt do. Build scans the root with grep's rules
// (internal/scan, every extension, grep's size limit) and records, per
// file, its size and mtime and the set of trigrams of its ASCII
// lower-cased bytes, as posting lists of file ids; plus the directories the
// walk entered with their mtimes and ignore files. The index is a side
// file next to the database (Path), written whole and renamed, read in
// place from a memory map.
//
// RegexpQuery turns a regular expression (regexp/syntax) into an AND/OR
// query over trigrams that every file holding a match satisfies; a pattern
// without a usable trigram gives QAll and the caller searches without the
// index. Select answers which files a search must read: those the query
// allows, plus every file changed (size, mtime, or modified too close to
// the build to trust), added or unreadable since the build, so that the
// caller's exact match gives the same lines as a full search. When no
// directory changed since the build the recorded file list is used
// (a stat per file, no walk); otherwise the tree is scanned again.
//
// It must not return file contents, read files outside the root (files
// are opened without following a final symbolic link, and only the
// scanner's files are read), or write anything but its own side file.
package grepindex
