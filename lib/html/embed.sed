# Turn a text file into the lines of a C string literal: escape backslash,
# double quote and '?' (no trigraphs), quote each line and keep its newline.
s/\\/\\\\/g
s/"/\\"/g
s/?/\\?/g
s/^/"/
s/$/\\n"/
