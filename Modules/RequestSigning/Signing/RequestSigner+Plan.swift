extension RequestSigner {
    /// The precomputed lines of a signature base for one component list.
    ///
    /// The line prefixes and field names sit in one byte table and the steps are plain values,
    /// so writing a base reads them without a reference count per line. Immutable after
    /// creation, hence `Sendable`.
    final class Plan: Sendable {
        /// One line: its `"name": ` prefix and where its value comes from.
        struct Step: Sendable {
            /// Where a line's value comes from.
            enum Kind: UInt8, Sendable {
                /// A derived component without parameters, from the request parts.
                case derived
                /// A header field without parameters, by its lowercase name (in the table).
                case field
                /// Anything else, evaluated on a ``SignableMessage`` (``Plan/others``).
                case other
            }

            var kind: Kind
            /// The component for ``Kind/derived``.
            var derived: ComponentIdentifier.Derived
            /// The line prefix in the table.
            var prefix: Range<Int>
            /// The field name in the table for ``Kind/field``; for ``Kind/other``, the index
            /// into ``Plan/others`` as `index..<index`.
            var name: Range<Int>
        }

        /// The prefixes, the field names and the serialised inner list, `("@method" ...)`.
        let table: [UInt8]
        let steps: [Step]
        /// The components of ``Step/Kind/other`` steps.
        let others: [ComponentIdentifier]
        /// Where `("@method" ...)` is in the table.
        let list: Range<Int>
        /// Whether some step needs a ``SignableMessage``.
        let needsMessage: Bool

        init(_ components: [ComponentIdentifier]) {
            var table: [UInt8] = []
            var steps: [Step] = []
            var others: [ComponentIdentifier] = []
            for component in components {
                let prefixStart = table.count
                table.append(contentsOf: component.linePrefix)
                let prefix = prefixStart..<table.count
                switch (component.derived, component.parameters.isEmpty) {
                case (.queryParameter?, _), (.status?, _), (_, false):
                    steps.append(
                        Step(kind: .other, derived: .method, prefix: prefix, name: others.count..<others.count))
                    others.append(component)
                case (let derived?, true):
                    steps.append(Step(kind: .derived, derived: derived, prefix: prefix, name: 0..<0))
                case (nil, true):
                    let nameStart = table.count
                    table.append(contentsOf: component.name.utf8)
                    steps.append(Step(kind: .field, derived: .method, prefix: prefix, name: nameStart..<table.count))
                }
            }
            let listStart = table.count
            table.append(UInt8(ascii: "("))
            for (index, component) in components.enumerated() {
                if index > 0 { table.append(0x20) }
                component.appendSerialized(to: &table)
            }
            table.append(UInt8(ascii: ")"))
            self.table = table
            self.steps = steps
            self.others = others
            self.list = listStart..<table.count
            self.needsMessage = !others.isEmpty
        }
    }
}
