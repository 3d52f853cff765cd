/// A sorted array literal written one entry per line, as `Package.swift`'s `featureModules` and
/// the daemon's module registry are: an opening line, then `<prefix>Name<suffix>` lines, then `]`.
///
/// Both editors read and extend their list through it, so a file in an unexpected shape is
/// refused the same way everywhere.
struct SortedLineList {
    /// The file, as named in messages (`Package.swift`).
    var file: String
    /// The array, as named in messages (`featureModules`).
    var arrayName: String
    /// The exact (trimmed) line that opens the array.
    var opening: String
    /// The text before and after the name on each entry line.
    var prefix: String
    var suffix: String
    /// How one entry is described when a line does not match (`"Name",`).
    var entryShape: String
    /// Whether messages about entry lines name the array (`line 3 in featureModules`).
    var namesArrayInLineErrors: Bool
    /// The indentation used when the list is empty.
    var defaultIndentation: String

    /// Where the entries stand, what they name, and how they are indented.
    struct Location {
        /// The index of the first entry line (the line after the opening).
        var firstLine: Int
        var names: [String]
        var indentation: String
    }

    /// Finds the list in `source`.
    /// - Throws: ``ScaffoldingError`` with code `repository` when the list is not in the expected shape.
    func locate(in source: String) throws(ScaffoldingError) -> Location {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let openings = lines.indices.filter { lines[$0].trimmingSpaces == opening }
        guard openings.count == 1, let open = openings.first else {
            throw ScaffoldingError(
                .repository,
                "\(file) must have exactly one line \"\(opening)\" (found \(openings.count))"
            )
        }
        var names: [String] = []
        var indentation = defaultIndentation
        var index = open + 1
        while index < lines.count {
            let line = lines[index]
            let text = line.trimmingSpaces
            if text == "]" {
                return Location(firstLine: open + 1, names: names, indentation: indentation)
            }
            let name = text.dropFirst(prefix.count).dropLast(suffix.count)
            guard text.hasPrefix(prefix), text.hasSuffix(suffix), text.count > prefix.count + suffix.count,
                name.allSatisfy(\.isIdentifierCharacter)
            else {
                let place = namesArrayInLineErrors ? " in \(arrayName)" : ""
                throw ScaffoldingError(
                    .repository,
                    "\(file) line \(index + 1)\(place) is not one \(entryShape) entry: \(text)"
                )
            }
            if names.isEmpty { indentation = String(line.prefix { $0 == " " }) }
            names.append(String(name))
            index += 1
        }
        throw ScaffoldingError(.repository, "the \(arrayName) array in \(file) has no closing ]")
    }

    /// `source` split into lines with an entry for `name` inserted in sorted position.
    /// - Throws: ``ScaffoldingError``: `repository` for an unrecognised list, `nameClash` (with
    ///   `clash` as the message) when `name` is already listed.
    func inserting(_ name: String, into source: String, clash: String) throws(ScaffoldingError) -> [String] {
        let list = try locate(in: source)
        guard !list.names.contains(name) else { throw ScaffoldingError(.nameClash, clash) }
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let position = list.names.firstIndex { $0 > name } ?? list.names.count
        lines.insert(list.indentation + prefix + name + suffix, at: list.firstLine + position)
        return lines
    }
}
