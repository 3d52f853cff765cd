/// A member of an RFC 8941 list or dictionary: an item or an inner list.
public enum SFMember: Hashable, Sendable {
    /// An item.
    case item(SFItem)
    /// An inner list.
    case innerList(SFInnerList)

    /// The item, when this is one.
    public var item: SFItem? {
        if case .item(let item) = self { return item }
        return nil
    }

    /// The inner list, when this is one.
    public var innerList: SFInnerList? {
        if case .innerList(let list) = self { return list }
        return nil
    }
}
