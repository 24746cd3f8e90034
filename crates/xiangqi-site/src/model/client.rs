//! Who a client is, for the limits on what one client may hold.

use std::net::{IpAddr, Ipv6Addr};

/// The key one client's connections and requests count under: an IPv4
/// address, or the /64 an IPv6 address belongs to (one subscriber usually
/// holds a whole /64).
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_client_is_its_64_and_a_mapped_ipv4_address_is_that_address() {
        let one: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let other: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        assert_eq!(client_key(one), client_key(other));
        assert_ne!(client_key(one), client_key("2001:db8:1:3::1".parse().unwrap()));
        assert_eq!(client_key("::ffff:10.1.2.3".parse().unwrap()), "10.1.2.3".parse::<IpAddr>().unwrap());
    }
}
